import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request, test } from '@playwright/test';
import type { TConnectorConfigPatchInput } from '@synchro/contracts';
import { E2E_BASE_URL, E2E_PORT } from './env.ts';

// The connector's parts of the e2e installation's configuration (Info, DerSynchro, source
// statuses) change when the simulator plays a sync. A spec that orders syncs puts them back as
// the fixture has them afterwards, through the connector API with the installation's token
// (written by start-server.mjs), so that no spec depends on the order of the files.

/** What the fixture (apps/server/demo/connexion-ebp-gescom.xml) holds, as the connector writes it. */
const FIXTURE_CONNECTOR_PARTS: TConnectorConfigPatchInput = {
  Info: {
    NuxiAutomateInstall: '1',
    NuxiAutomateLibelle: 'Version : 6.11.23.9',
    DateMAJConfig: '20250305093300664',
    VersionConnecteur: '',
  },
  DerSynchro: {
    TypeDeSync: 'ComplÃ¨te',
    DateHeure: '20250309080952542',
    Duree: '00:04:11',
    NbEnreg: '1838',
    Vitesse: '5927',
    Taille: '3,721 Mo',
    DureeAlerte: '0',
    TailleAlerte: '0',
  },
  Sources: [{ index: 1, Status: '1', StatusLibelle: ' Ok : SQL' }],
};

function connectorToken(): string {
  return readFileSync(path.join(tmpdir(), `synchro-e2e-${E2E_PORT}-connector-token`), 'utf8').trim();
}

async function restoreConnectorParts(): Promise<void> {
  const api = await request.newContext({ baseURL: E2E_BASE_URL });
  try {
    const res = await api.patch('/api/connector/v1/configuration', {
      headers: { Authorization: `Bearer ${connectorToken()}` },
      data: FIXTURE_CONNECTOR_PARTS,
    });
    if (!res.ok()) throw new Error(`Restauration impossible : ${res.status()} ${await res.text()}`);
  } finally {
    await api.dispose();
  }
}

/** Puts the connector's parts back after the spec's tests, also when one fails. */
export function restoreConnectorPartsAfterAll(): void {
  test.afterAll(restoreConnectorParts);
}
