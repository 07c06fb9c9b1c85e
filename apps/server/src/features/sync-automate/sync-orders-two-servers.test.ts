import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, testApp } from '../../../test/helpers/app.ts';
import { connectorCall, connectorInstallation } from '../../../test/helpers/connector.ts';
import { openTestDbPair, usingPostgres } from '../../../test/helpers/db.ts';
import {
  answering,
  automateAnswer,
  scriptedAutomate,
  type ScriptedAutomate,
} from '../../../test/helpers/scripted-automate.ts';
import type { Db } from '../../db/types.ts';

/**
 * Two server processes on one PostgreSQL (two apps, two connection pools): the one-order-in-
 * flight rule is the database's, so it holds across them. PostgreSQL only: the embedded
 * database has one process by construction (its lock file).
 */
describe.skipIf(!usingPostgres())('two servers on one PostgreSQL', () => {
  let dbA: Db;
  let dbB: Db;
  let appA: FastifyInstance;
  let appB: FastifyInstance;
  let peer: ScriptedAutomate;

  beforeAll(async () => {
    [dbA, dbB] = await openTestDbPair();
    appA = await testApp(dbA, { automateNetworks: 'loopback' });
    appB = await testApp(dbB, { automateNetworks: 'loopback' });
    peer = await scriptedAutomate(answering(automateAnswer(1, 'Synchronisation lancée.'), 500));
  });
  afterAll(async () => {
    await peer?.close();
    await appA?.close();
    await appB?.close();
    await dbB?.close();
    await dbA?.close();
  });

  it('two orders at once, one through each server: exactly one GET, the other told one is running', async () => {
    const inst = await connectorInstallation(dbA, 'TWOSRV01');
    const reg = await connectorCall(appA, 'POST', '/automate', inst.token, {
      port: peer.port,
      ip: '127.0.0.1',
    });
    expect(reg.statusCode).toBe(200);
    const [cookieA, cookieB] = [await signIn(appA, inst.syncId), await signIn(appB, inst.syncId)];
    const order = (app: FastifyInstance, cookie: string) =>
      app
        .inject({ method: 'POST', url: '/api/sync-automate', headers: { cookie }, payload: { type: 'C' } })
        .then((res) => res.json<{ outcome: string; retSync: number }>());
    for (let round = 1; round <= 3; round += 1) {
      const answers = await Promise.all([order(appA, cookieA), order(appB, cookieB)]);
      expect(answers.map((a) => a.outcome).sort()).toEqual(['accepted', 'busy']);
      expect(peer.requests).toHaveLength(round);
    }
    const rows = await dbB.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sync_orders WHERE installation_id = $1 AND finished_at IS NULL`,
      [inst.id],
    );
    expect(rows[0]?.n).toBe(0);
  });
});
