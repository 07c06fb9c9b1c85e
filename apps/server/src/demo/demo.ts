import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../db/types.ts';
import { createInstallation } from '../domain/installation-admin.ts';
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
 * Creates the demo installation when the database has none. Its client id is random; it is
 * kept in DATA_DIR/demo-credentials.txt (mode 600) so that later starts can print the login link
 * again. Returns null when the database already holds other installations and no demo.
 */
export async function ensureDemoInstallation(
  db: Db,
  dataDir: string | undefined,
): Promise<DemoCredentials | null> {
  if ((await countInstallations(db)) > 0) {
    const existing = await findInstallationBySyncId(db, DEMO_SYNC_ID);
    return existing ? { syncId: DEMO_SYNC_ID, clientId: readSavedClientId(dataDir), created: false } : null;
  }
  const clientId = randomBytes(12).toString('base64url');
  await createInstallation(db, {
    syncId: DEMO_SYNC_ID,
    clientId,
    configText: readFileSync(DEMO_CONFIG_FILE, 'utf8'),
    premium: true,
    options: DEMO_OPTIONS,
    software: DEMO_SOFTWARE,
  });
  if (dataDir) {
    writeFileSync(
      join(dataDir, DEMO_CREDENTIALS_FILE),
      `# Installation de démonstration créée le ${new Date().toISOString()}\nsyncId=${DEMO_SYNC_ID}\nclientId=${clientId}\n`,
      { mode: 0o600 },
    );
  }
  return { syncId: DEMO_SYNC_ID, clientId, created: true };
}

export function demoLoginUrl(baseUrl: string, demo: DemoCredentials): string {
  const query = new URLSearchParams({
    syncId: demo.syncId,
    ...(demo.clientId ? { clientId: demo.clientId } : {}),
  });
  return `${baseUrl}/auth?${query.toString()}`;
}
