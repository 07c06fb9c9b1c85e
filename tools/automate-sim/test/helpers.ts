import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TQueuedRecord } from '../src/api-types.ts';
import { encodeOrder, type SyncOrder } from '../src/order-codec.ts';

/** The real configuration fixture (the repository's copy of /work/shared/fixtures/config). */
export const FIXTURE_CONFIG = readFileSync(
  fileURLToPath(
    new URL('../../../packages/config-xml/test/fixtures/connexion-ebp-gescom.xml', import.meta.url),
  ),
  'utf8',
);

/** Declared device ids of the fixture (terminals with ID_Tablette or ID_Smartphone). */
export const FIXTURE_DEVICE_IDS = new Set([
  '815bf75ff86d94fa',
  '4127ca92e1ae327b',
  '7047d7410',
  '7a6',
  '76083679b',
  '21a0369fcc38139c',
  '33824c7a2b001706',
  '842bf90c5ae36f78',
  'a15ac754975802ef',
  'bdbdffe925e33c10',
  '373894c39f6c02ac',
]);

export function order(overrides: Partial<SyncOrder> = {}): SyncOrder {
  return {
    requestId: crypto.randomUUID(),
    timestamp: new Date().toISOString(),
    type: 'C',
    connectorExe: 'C:\\Mes Projets\\Synchro NuxiDev\\Exe\\ExÃ©cutable Windows 64 bits\\Synchro NuxiDev.exe',
    connectorIndex: 'DEMO-EB15-AB22-A1BA-5B66',
    syncId: 'DEMOA001',
    requester: 'Connecteur',
    ...overrides,
  };
}

/** Sends the legacy GET to the simulator and returns the raw answer. */
export async function sendOrder(port: number, payload: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/${payload}`);
  return { status: res.status, text: await res.text() };
}

export function sendSyncOrder(port: number, overrides: Partial<SyncOrder> = {}) {
  return sendOrder(port, encodeOrder(order(overrides)));
}

/** A record as the import queue gives it (a quote by default). */
export function queuedRecord(overrides: Partial<TQueuedRecord> = {}): TQueuedRecord {
  return {
    IDInterne: 'NUXIDEVA61267c591917f0e1',
    TypeEnreg: 'DocumentDEVIS',
    RefDoc: 'XX_13708041526',
    DateHeure: '2025-11-14T09:12:00',
    NumLigne: 3,
    TypeElement: 'CrÃ©ation',
    Enreg: '<SyncNuxiDev/>',
    ...overrides,
  };
}
