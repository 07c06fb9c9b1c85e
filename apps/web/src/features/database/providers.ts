import { PROVIDER_OPTIONS } from '@synchro/contracts/constants';
import { withStored } from '../../forms/with-stored.ts';

/**
 * A select value must not be empty (docs/spec-notes.md, Web: Base de données source), and Radix Select cannot
 * hold one: 'Pas de connexion' ('') uses this one.
 */
export const NO_PROVIDER_VALUE = '__aucun__';

export const toSelectValue = (provider: string): string => (provider === '' ? NO_PROVIDER_VALUE : provider);
export const fromSelectValue = (value: string): string => (value === NO_PROVIDER_VALUE ? '' : value);

/** The options of the Provider select; a stored value outside the list is offered as it is. */
export function providerOptions(current: string): { label: string; value: string }[] {
  const options = PROVIDER_OPTIONS.map((o) => ({ label: o.label, value: toSelectValue(o.value) }));
  return current === '' ? options : withStored(options, current);
}
