import { SelectField } from '../../forms/select-field.tsx';
import { withStored } from '../../forms/with-stored.ts';
import { NONE } from './terminals-form.ts';

/** A technician or depot select: an empty choice, the list, and a stored id the list lacks. */
export function EmployeeSelect({
  label,
  value,
  noneLabel,
  options,
  onChange,
}: {
  label: string;
  value: string;
  noneLabel: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  const choices = [{ value: NONE, label: noneLabel }, ...options];
  const all = value === '' ? choices : withStored(choices, value, (id) => `Inconnu (${id})`);
  return (
    <SelectField
      label={label}
      value={value === '' ? NONE : value}
      onValueChange={(v) => onChange(v === NONE ? '' : v)}
      options={all}
    />
  );
}
