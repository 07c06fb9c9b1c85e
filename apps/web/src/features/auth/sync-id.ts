// Same rule and text as @synchro/contracts (SYNC_ID_PATTERN, SYNC_ID_MESSAGE), kept here so that
// the login chunk does not pull zod in; sync-id.test.ts checks that both stay equal.
export const SYNC_ID_PATTERN = /^[A-Z0-9]+$/;
export const SYNC_ID_MESSAGE =
  "L'ID de synchronisation doit être en majuscules et ne contenir que des lettres et des chiffres";

/** What the sync id field keeps of typed text: upper-cased, only A-Z and 0-9 (spec §5). */
export function normalizeSyncIdInput(value: string): string {
  return value.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

export function isValidSyncId(value: string): boolean {
  return SYNC_ID_PATTERN.test(value);
}
