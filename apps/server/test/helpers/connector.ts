import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../../src/db/types.ts';
import type { NewInstallation } from '../../src/domain/installation-admin.ts';
import { addInstallation } from './app.ts';

export const CONNECTOR = '/api/connector/v1';

/** A new installation (fixture configuration) and its connector token. */
export async function connectorInstallation(db: Db, syncId: string, extra: Partial<NewInstallation> = {}) {
  const { installation, connectorToken } = await addInstallation(db, { syncId, ...extra });
  return { id: installation.id, syncId, token: connectorToken };
}

/** One connector API call with a bearer token (none when `token` is null). */
export function connectorCall(
  app: FastifyInstance,
  method: InjectOptions['method'],
  path: string,
  token: string | null,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: `${CONNECTOR}${path}`,
    headers: { ...(token !== null ? { authorization: `Bearer ${token}` } : {}), ...headers },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

/** Checks a connector error answer: its status, `{error, message}` and nothing else. */
export function expectConnectorError(res: LightMyRequestResponse, status: number, error: string): string {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json<{ error: string; message: string }>();
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  expect(body.error).toBe(error);
  expect(body.message).toMatch(/[a-zé]/);
  return body.message;
}

let counter = 0;

/** A small import record in the connector's convention (accents as UTF-8 read as Latin-1). */
export function importRecord(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    IDInterne: `NUXIDEV${String(counter).padStart(6, '0')}`,
    TypeEnreg: 'DocumentDEVIS',
    RefDoc: `XX_${counter}`,
    DateHeure: '2025-11-14T09:12:00',
    NumLigne: 3,
    TypeElement: 'CrÃ©ation',
    Etat: 0,
    Enreg: `<SyncNuxiDev><Table>DEVIS</Table><Enregistrement><Libelle>Devis nÂ°${counter} Ã©tÃ©</Libelle></Enregistrement></SyncNuxiDev>`,
    ...overrides,
  };
}

/** A transaction of a terminal. */
export function transaction(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    ID: `T-${String(counter).padStart(6, '0')}`,
    Err: 0,
    DateHeureTrt: '2025-11-14T09:12:03',
    NumTransaction: String(counter),
    TypeDoc: 'DEVIS',
    RefDoc: `XX_${counter}`,
    IDTablette: '815bf75ff86d94fa',
    LibelleTablette: 'Tablette de LÃ©a',
    Log: 'Ligne 1\r\nLigne 2',
    ...overrides,
  };
}
