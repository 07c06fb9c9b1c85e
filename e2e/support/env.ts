/** The installation every browser test signs in to; created by start-server.mjs on a fresh database. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 5391);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_SYNC_ID = 'E2EDEMO1';
export const E2E_CLIENT_ID = 'e2e-client-secret-4242';

/** A second installation whose automate last reported 30 hours ago (start-server.mjs). */
export const E2E_OFFLINE_SYNC_ID = 'E2EOFF01';
export const E2E_OFFLINE_CLIENT_ID = 'e2e-offline-secret-4242';
