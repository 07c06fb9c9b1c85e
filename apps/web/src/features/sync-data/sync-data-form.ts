import { HISTO_MAX, type TSyncDataItem, type TSyncDataPayload, type TSyncDataView } from '@synchro/contracts';

/** The unit label switches at 10 (docs/spec-notes.md, Web: Données à synchroniser). */
export const HISTO_DOCUMENTS_MAX = 10;

export type SyncDataForm = TSyncDataItem[];

export const toSyncDataForm = (view: TSyncDataView): SyncDataForm => view.syncData.map((d) => ({ ...d }));

/** POST /api/sync-data/save: every item, as shown. */
export const toSyncDataPayload = (form: SyncDataForm): TSyncDataPayload => ({
  syncData: form.map(({ Reference, Complete, Libelle, Histo, CanHaveHistory }) => ({
    Reference,
    Complete,
    Libelle,
    Histo,
    CanHaveHistory,
  })),
});

export const toSyncDataView = (form: SyncDataForm): TSyncDataView => ({
  syncData: form.map((d) => ({ ...d })),
});

/**
 * The history typed in the field (docs/spec-notes.md, Web: Données à synchroniser): digits only, 0 to 10000,
 * empty = 0. Anything else is
 * ignored: `null`, the field keeps its previous value.
 */
export function parseHisto(text: string): number | null {
  if (text === '') return 0;
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return n > HISTO_MAX ? null : n;
}

/** 0 is shown empty. */
export const histoText = (histo: number): string => (histo === 0 ? '' : String(histo));

/** The unit beside the field: 'Documents' from 1 to 10, 'Jours' above, nothing for 0. */
export function histoUnit(histo: number): 'Documents' | 'Jours' | '' {
  if (histo > HISTO_DOCUMENTS_MAX) return 'Jours';
  if (histo >= 1) return 'Documents';
  return '';
}

/** State of the 'Tout' checkbox: checked when all are, indeterminate when some. */
export function allState(form: SyncDataForm): boolean | 'indeterminate' {
  const n = form.filter((d) => d.Complete).length;
  if (n === 0) return false;
  return n === form.length ? true : 'indeterminate';
}
