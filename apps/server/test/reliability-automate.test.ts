import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/open.ts';
import { BUSY_MESSAGE } from '../src/features/sync-automate/messages.ts';
import { addInstallation } from './helpers/app.ts';
import { CONNECTOR } from './helpers/connector.ts';
import { send, signInOver } from './helpers/http-client.ts';
import { answering, automateAnswer, scriptedAutomate } from './helpers/scripted-automate.ts';
import { startServerProcess } from './helpers/server-process.ts';
import { inPostgresPass } from './helpers/passes.ts';

/**
 * The server killed (`kill -9`) while its order waits for an automate that does not answer: the
 * order's row stays unfinished, and after the restart the next order is told one is running
 * until that row is older than the 10 s timeout plus its margin (15 s), then goes. The automate
 * hanging or down with a live server (timeout message, the next order accepted) is
 * src/features/sync-automate/sync-automate.test.ts. docs/reliability.md, "The automate".
 */
describe.skipIf(inPostgresPass)('an order cut by kill -9 of the server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'synchro-order-crash-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('blocks the next orders only until it is 15 s old, then the next one goes and the cut one is closed as abandoned', async () => {
    let hang = true;
    const peer = await scriptedAutomate((req, res) => {
      if (hang) return; // accepts the connection, never answers
      answering(automateAnswer(1, 'Synchronisation lancée.'))(req, res);
    });
    const setup = await openDatabase({ dataDir });
    const { connectorToken: token } = await addInstallation(setup, { syncId: 'ORDCRASH' });
    await setup.close();
    const env = { DATA_DIR: dataDir, AUTOMATE_NETWORKS: 'loopback' };
    try {
      let server = await startServerProcess(env);
      const reg = await send(server.baseUrl, `${CONNECTOR}/automate`, {
        method: 'POST',
        token,
        json: { port: peer.port, ip: '127.0.0.1', version: '6.11', machineName: 'SRV' },
      });
      expect(reg.status, reg.body).toBe(200);
      const order = (base: string, cookie: string) =>
        send(base, '/api/sync-automate', { method: 'POST', cookie, json: { type: 'C' } });
      const cookie = await signInOver(server.baseUrl, 'ORDCRASH');
      // The order's row is written after this instant and before the automate receives it: its
      // age is at most `Date.now() - sentAt` and at least `Date.now() - receivedAt`.
      const sentAt = Date.now();
      const cut = order(server.baseUrl, cookie);
      // The automate received the order: the server is waiting for its answer.
      while (peer.requests.length === 0 && Date.now() - sentAt < 20_000)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const receivedAt = Date.now();
      expect(peer.requests).toHaveLength(1);
      await server.kill9();
      expect((await cut).status).toBe(0);

      hang = false;
      server = await startServerProcess(env);
      const restartMs = server.startMs;
      const again = await signInOver(server.baseUrl, 'ORDCRASH');
      const early = await order(server.baseUrl, again);
      const earlyAge = Date.now() - sentAt;
      expect(early.status, early.body).toBe(200);
      const earlyOutcome = (JSON.parse(early.body) as { outcome: string }).outcome;
      if (earlyAge < 14_000) {
        expect(JSON.parse(early.body)).toMatchObject({ outcome: 'busy', retSync: 0, retInfo: BUSY_MESSAGE });
        expect(peer.requests).toHaveLength(1);
      } else {
        // The restart took most of the 15 s (a loaded machine): the cut row may already be old
        // enough, and then this order went to the automate.
        expect(['busy', 'accepted']).toContain(earlyOutcome);
      }
      const earlyWent = earlyOutcome === 'accepted' ? 1 : 0;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, receivedAt + 16_000 - Date.now())));
      const next = await order(server.baseUrl, again);
      expect(next.status, next.body).toBe(200);
      expect(JSON.parse(next.body)).toMatchObject({ outcome: 'accepted', retSync: 1 });
      expect(peer.requests).toHaveLength(2 + earlyWent);
      expect(await server.stop()).toBe(0);

      const db = await openDatabase({ dataDir });
      try {
        const rows = await db.query<{ outcome: string | null; finished: boolean }>(
          `SELECT o.outcome, o.finished_at IS NOT NULL AS finished FROM sync_orders o
           JOIN installations i ON i.id = o.installation_id WHERE i.sync_id = 'ORDCRASH' ORDER BY o.requested_at`,
        );
        expect(rows).toEqual([
          { outcome: 'abandoned', finished: true },
          ...(earlyWent ? [{ outcome: 'accepted', finished: true }] : []),
          { outcome: 'accepted', finished: true },
        ]);
      } finally {
        await db.close();
      }
      console.log(
        `RELIABILITY order-kill-9 ${JSON.stringify({ restartMs, busyChecked: earlyAge < 14_000, earlyAgeMs: earlyAge })}`,
      );
    } finally {
      await peer.close();
    }
  }, 90_000);
});
