import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/open.ts';
import { addInstallation } from './helpers/app.ts';
import { freshDatabase } from './helpers/fresh-database.ts';
import { isOk, send, signInOver } from './helpers/http-client.ts';
import { startServerProcess, type ServerProcess } from './helpers/server-process.ts';

/**
 * Two server processes on one PostgreSQL (the real `main.ts`, twice, one DATABASE_URL and one
 * SESSION_SECRET): a session opened on one works on the other and ends on both; login failures
 * are counted once for both. The one-order-in-flight rule across servers is
 * src/features/sync-automate/sync-orders-two-servers.test.ts. docs/reliability.md, "Two servers".
 */
const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)('two server processes on one PostgreSQL', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let drop: () => Promise<void> = async () => {};
  const dataDir = mkdtempSync(join(tmpdir(), 'synchro-two-'));

  beforeAll(async () => {
    const fresh = await freshDatabase(serverUrl!);
    drop = fresh.drop;
    const db = await openDatabase({ databaseUrl: fresh.url, dataDir });
    for (const syncId of ['TWOSESS1', 'TWOTHRO1', 'TWOBURST']) await addInstallation(db, { syncId });
    await db.close();
    const env = { DATABASE_URL: fresh.url, SESSION_SECRET: 't'.repeat(48), DATA_DIR: dataDir };
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a session opened on one server works on the other, a save through either is seen by both, a logout ends it on both', async () => {
    const cookie = await signInOver(a.baseUrl, 'TWOSESS1');
    const userOnB = await send(b.baseUrl, '/api/user', { cookie });
    expect(userOnB.status, userOnB.body).toBe(200);
    expect(JSON.parse(userOnB.body)).toMatchObject({ IDSynchro: 'TWOSESS1' });

    const view = JSON.parse((await send(b.baseUrl, '/api/config/external-links', { cookie })).body) as {
      version: number;
      data: { Dossier_Export: string; Liaisons: unknown };
    };
    const save = await send(b.baseUrl, '/api/database/external-links', {
      method: 'POST',
      cookie,
      ifMatch: view.version,
      json: {
        Dossier_Import: 'C:\\Deux serveurs',
        Dossier_Export: view.data.Dossier_Export,
        Liaisons: view.data.Liaisons,
      },
    });
    expect(save.status, save.body).toBe(200);
    const onA = JSON.parse((await send(a.baseUrl, '/api/config/external-links', { cookie })).body) as {
      version: number;
      data: { Dossier_Import: string };
    };
    expect(onA).toMatchObject({ version: view.version + 1, data: { Dossier_Import: 'C:\\Deux serveurs' } });

    const logout = await send(b.baseUrl, '/api/logout', { method: 'POST', cookie });
    expect(isOk(logout), logout.body).toBe(true);
    expect((await send(a.baseUrl, '/api/user', { cookie })).status).toBe(401);
    expect((await send(b.baseUrl, '/api/user', { cookie })).status).toBe(401);
  });

  it('login failures are counted once for both: 5 spread over the two servers block the sync id on both', async () => {
    const wrong = (server: ServerProcess) =>
      send(server.baseUrl, '/api/login', {
        method: 'POST',
        json: { username: 'TWOTHRO1', password: 'faux' },
      });
    for (const server of [a, b, a, b, a]) expect((await wrong(server)).status).toBe(401);
    for (const server of [a, b]) {
      // Even the right client id is refused now, in French, with the wait.
      const res = await send(server.baseUrl, '/api/login', {
        method: 'POST',
        json: { username: 'TWOTHRO1', password: 'client-secret' },
      });
      expect(res.status, res.body).toBe(429);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
      expect(JSON.parse(res.body).message).toMatch(
        /^Trop de tentatives de connexion échouées\. Réessayez dans \d+ (minutes?|secondes?)\.$/,
      );
      expect(Number(res.headers?.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('12 wrong client ids sent at once over both servers: at most 5 are checked, the others are refused 429', async () => {
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        send((i % 2 ? a : b).baseUrl, '/api/login', {
          method: 'POST',
          json: { username: 'TWOBURST', password: `faux-${i}` },
        }),
      ),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    console.log(
      `RELIABILITY two-servers burst ${JSON.stringify({
        checked401: statuses.filter((s) => s === 401).length,
        refused429: statuses.filter((s) => s === 429).length,
        startMs: [a.startMs, b.startMs],
      })}`,
    );
  });
});
