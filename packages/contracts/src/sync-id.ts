// Zod-free on purpose: the login screen imports it (`@synchro/contracts/sync-id`) without
// pulling the schemas into its chunk.

/** A synchronisation id: capital letters and digits only (docs/spec-notes.md, Sign-in). */
export const SYNC_ID_PATTERN = /^[A-Z0-9]+$/;
export const SYNC_ID_MESSAGE =
  "L'ID de synchronisation doit être en majuscules et ne contenir que des lettres et des chiffres";

/** What the sync id field keeps of typed text: upper-cased, only A-Z and 0-9 (docs/spec-notes.md, Sign-in). */
export function normalizeSyncIdInput(value: string): string {
  return value.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

export function isValidSyncId(value: string): boolean {
  return SYNC_ID_PATTERN.test(value);
}
