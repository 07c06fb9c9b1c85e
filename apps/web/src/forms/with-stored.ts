/** How a stored value that the list lacks is shown: 'ORAOLEDB (valeur enregistrée)'. */
export const storedLabel = (value: string | number) => `${value} (valeur enregistrée)`;

/**
 * The choices of a select, plus the stored value when the list lacks it (offered as it is, so that
 * saving does not lose it).
 */
export function withStored<T extends string | number>(
  options: readonly { value: T; label: string }[],
  current: T,
  label: (value: T) => string = storedLabel,
): { value: T; label: string }[] {
  const list = options.map((o) => ({ value: o.value, label: o.label }));
  if (!list.some((o) => o.value === current)) list.push({ value: current, label: label(current) });
  return list;
}
