import { API_PATHS } from '@synchro/contracts/constants';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/types.ts';
import { createConfigWriteGate } from '../src/domain/config-write-gate.ts';
import { signIn, testApp } from './helpers/app.ts';
import { connectorCall, connectorInstallation } from './helpers/connector.ts';
import { openTestDb } from './helpers/db.ts';
import { SECTION_SAVES } from './helpers/section-saves.ts';

/**
 * Every configuration write of the console and the connector goes through the installation's
 * write gate (domain/config-write-gate.ts): while it is held, they wait without a database
 * connection; another installation's writes go on.
 */
describe('configuration writes wait for their installation’s gate', () => {
  const gate = createConfigWriteGate();
  let db: Db;
  let app: FastifyInstance;
  beforeAll(async () => {
    db = await openTestDb();
    app = await testApp(db, { configWrites: gate });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it('a save, a restore, a repair and the connector’s PATCH wait while the gate is held; another installation’s save does not', async () => {
    const a = await connectorInstallation(db, 'GATEA001');
    const b = await connectorInstallation(db, 'GATEB001');
    const cookieA = await signIn(app, a.syncId);
    const cookieB = await signIn(app, b.syncId);
    const save = SECTION_SAVES.find((s) => s.key === 'externalLinks')!;
    const viewOf = async (cookie: string) =>
      (await app.inject({ url: save.getPath, headers: { cookie } })).json<{ data: unknown }>().data;
    const saveOf = async (cookie: string, n: number) =>
      app.inject({
        method: save.method,
        url: save.path,
        headers: { cookie },
        payload: save.payload(await viewOf(cookie), n) as object,
      });

    let release = () => {};
    const held = gate.run(a.id, () => new Promise<void>((resolve) => (release = resolve)));
    const answered: string[] = [];
    const track = (name: string, pending: Promise<LightMyRequestResponse>) =>
      pending.then((res) => {
        answered.push(name);
        return res;
      });
    const waiting = [
      track('save', saveOf(cookieA, 1)),
      track(
        'restore',
        app.inject({
          method: 'POST',
          url: '/api/configuration-history/1/restore',
          headers: { cookie: cookieA, 'if-match': '"1"' },
          payload: {},
        }),
      ),
      track(
        'repair',
        app.inject({ method: 'POST', url: API_PATHS.debugRepairXml, headers: { cookie: cookieA } }),
      ),
      track(
        'patch',
        connectorCall(app, 'PATCH', '/configuration', a.token, { DerSynchro: { NbEnreg: '7' } }),
      ),
    ];
    // B's save is not held by A's gate.
    expect((await saveOf(cookieB, 2)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answered).toEqual([]);
    expect(gate.pending(a.id)).toBe(5);

    release();
    await held;
    const answers = await Promise.all(waiting);
    expect(answered).toHaveLength(4);
    for (const res of answers) expect(res.statusCode, res.body).toBeLessThan(500);
    expect(answers[0]?.statusCode).toBe(200);
    expect(answers[3]?.statusCode).toBe(200);
    expect(gate.pending(a.id)).toBe(0);
  });
});
