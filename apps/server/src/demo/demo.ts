import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../db/types.ts';
import { lastAuditOf } from '../domain/audit.ts';
import {
  createInstallation,
  resumeInstallation,
  setClientId,
  suspendInstallation,
} from '../domain/installation-admin.ts';
import { countInstallations, findInstallationBySyncId } from '../domain/installations.ts';
import { DEMO_CONFIG_FILE } from '../paths.ts';

export const DEMO_SYNC_ID = 'DEMOA001';
export const DEMO_OPTIONS = `25;${DEMO_SYNC_ID};A`;
export const DEMO_SOFTWARE = '1;EBP GesCom Open Line;EBPGesComOL|2;EBP Gestion Open Line;GesCom';
export const DEMO_CREDENTIALS_FILE = 'demo-credentials.txt';

export interface DemoCredentials {
  syncId: string;
  /** Known when created now, or kept in the data folder by an earlier start. */
  clientId: string | null;
  created: boolean;
}

function readSavedClientId(dataDir: string | undefined): string | null {
  if (!dataDir) return null;
  const file = join(dataDir, DEMO_CREDENTIALS_FILE);
  if (!existsSync(file)) return null;
  const match = /^clientId=(.+)$/m.exec(readFileSync(file, 'utf8'));
  return match?.[1]?.trim() ?? null;
}

/**
 * DEMO=0: nothing is created; the client id kept in clear is deleted; an existing demo
 * installation is suspended (its sessions end; audited, actor 'system'): its client id was
 * printed and stored in clear, so it must not stay a way in. Turning the demo on again reopens it
 * with a new client id (reopenDemo).
 */
async function turnOffDemo(db: Db, dataDir: string | undefined): Promise<void> {
  if (dataDir) rmSync(join(dataDir, DEMO_CREDENTIALS_FILE), { force: true });
  const existing = await findInstallationBySyncId(db, DEMO_SYNC_ID);
  if (existing && !existing.suspended)
    await suspendInstallation(db, DEMO_SYNC_ID, { actor: 'system', reason: 'DEMO=0' });
}

/**
 * Creates the demo installation when the database has none. Its client id is random; it is
 * kept in DATA_DIR/demo-credentials.txt (mode 600, in the 0700 data folder) while the demo is on,
 * so that later starts can print the login link again. Returns null when the database already
 * holds other installations and no demo, or when the demo is turned off (`turnedOff`, DEMO=0 read
 * by config/env.ts: turnOffDemo).
 */
export async function ensureDemoInstallation(
  db: Db,
  dataDir: string | undefined,
  turnedOff = false,
): Promise<DemoCredentials | null> {
  if (turnedOff) {
    await turnOffDemo(db, dataDir);
    return null;
  }
  if ((await countInstallations(db)) > 0) {
    const existing = await findInstallationBySyncId(db, DEMO_SYNC_ID);
    if (!existing) return null;
    if (existing.suspended && (await suspendedByDemoOff(db, existing.id)))
      return { syncId: DEMO_SYNC_ID, clientId: await reopenDemo(db, dataDir), created: false };
    return { syncId: DEMO_SYNC_ID, clientId: readSavedClientId(dataDir), created: false };
  }
  const clientId = newDemoClientId();
  await createInstallation(db, {
    syncId: DEMO_SYNC_ID,
    clientId,
    configText: readFileSync(DEMO_CONFIG_FILE, 'utf8'),
    premium: true,
    options: DEMO_OPTIONS,
    software: DEMO_SOFTWARE,
    // Its history is the simulator's: seed-history may fill it (docs/history.md, Seed).
    bench: true,
  });
  saveDemoCredentials(dataDir, clientId, 'créée');
  return { syncId: DEMO_SYNC_ID, clientId, created: true };
}

const newDemoClientId = () => randomBytes(12).toString('base64url');

function saveDemoCredentials(dataDir: string | undefined, clientId: string, what: string): void {
  if (!dataDir) return;
  writeFileSync(
    join(dataDir, DEMO_CREDENTIALS_FILE),
    `# Installation de démonstration ${what} le ${new Date().toISOString()}\nsyncId=${DEMO_SYNC_ID}\nclientId=${clientId}\n`,
    { mode: 0o600 },
  );
}

/** True when the demo's last suspension or resumption was DEMO=0's (not an administrator's). */
async function suspendedByDemoOff(db: Db, installationId: string): Promise<boolean> {
  const last = await lastAuditOf(db, installationId, ['installation.suspend', 'installation.resume']);
  return (
    last?.action === 'installation.suspend' && last.actor === 'system' && last.details?.reason === 'DEMO=0'
  );
}

/**
 * The demo turned on again after DEMO=0: resumed with a new client id (the old one was deleted
 * with its file), printed and kept like a new demo's. An administrator's suspension stays.
 */
async function reopenDemo(db: Db, dataDir: string | undefined): Promise<string> {
  const clientId = newDemoClientId();
  await setClientId(db, DEMO_SYNC_ID, clientId, { actor: 'system', reason: 'DEMO' });
  await resumeInstallation(db, DEMO_SYNC_ID, { actor: 'system', reason: 'DEMO' });
  saveDemoCredentials(dataDir, clientId, 'rouverte');
  return clientId;
}

export function demoLoginUrl(baseUrl: string, demo: DemoCredentials): string {
  const query = new URLSearchParams({
    syncId: demo.syncId,
    ...(demo.clientId ? { clientId: demo.clientId } : {}),
  });
  return `${baseUrl}/auth?${query.toString()}`;
}
