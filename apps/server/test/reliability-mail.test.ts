import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseTarget } from '../src/db/open.ts';
import { addInstallation, FIXTURE_CONFIG } from './helpers/app.ts';
import { CONNECTOR } from './helpers/connector.ts';
import { freshDatabase } from './helpers/fresh-database.ts';
import { send } from './helpers/http-client.ts';
import { inPostgresPass } from './helpers/passes.ts';
import { startServerProcess, type ServerProcess } from './helpers/server-process.ts';
import { header, startRelay, type TestRelay } from './helpers/smtp-relay.ts';

/**
 * The real server process killed (`kill -9`) right after the connector's write that causes an
 * email, then started again on the same data: the email is sent once, by whichever start gets to
 * it, never lost, never twice (docs/mail.md, Sending; docs/reliability.md, Emails).
 */

const SYNC_ID = 'MAILKILL1';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function killRounds(
  target: DatabaseTarget,
  env: Record<string, string>,
  relay: TestRelay,
  rounds: number,
) {
  const setup = await openDatabase(target);
  const { connectorToken: token, installation } = await addInstallation(setup, {
    syncId: SYNC_ID,
    configText: FIXTURE_CONFIG.replace(
      '<Envoyer_Rapport>0</Envoyer_Rapport>',
      '<Envoyer_Rapport>1</Envoyer_Rapport>',
    ),
  });
  await setup.close();
  const serverEnv = {
    ...env,
    SMTP_URL: relay.url,
    MAIL_FROM: 'Console <console@exemple.fr>',
    PUBLIC_URL: 'https://console.exemple.fr',
  };
  let server: ServerProcess = await startServerProcess(serverEnv);
  const reports = () => relay.received.filter((m) => (header(m.raw, 'Subject') ?? '').includes(SYNC_ID));
  try {
    for (let round = 1; round <= rounds; round += 1) {
      const patch = await send(server.baseUrl, `${CONNECTOR}/configuration`, {
        method: 'PATCH',
        token,
        json: {
          DerSynchro: {
            DateHeure: `2026030210${String(round).padStart(2, '0')}00000`,
            NbEnreg: String(round),
          },
        },
      });
      expect(patch.status, patch.body).toBe(200);
      // At once: the sender looks every 5 s, so the email is most often still waiting.
      await server.kill9();
      server = await startServerProcess(serverEnv);
      for (let t = 0; t < 200 && reports().length < round; t += 1) await sleep(100);
      expect(reports()).toHaveLength(round);
    }
    // A little more than a sender's pass: nothing comes twice.
    await sleep(6_000);
  } finally {
    await server.stop();
  }
  const check = await openDatabase(target);
  try {
    const rows = await check.query<{ state: string; messageId: string }>(
      `SELECT state, message_id AS "messageId" FROM mail_outbox WHERE installation_id = $1 ORDER BY id`,
      [installation.id],
    );
    expect(rows.map((r) => r.state)).toEqual(Array(rounds).fill('sent'));
    const sent = reports().map((m) => header(m.raw, 'Message-ID'));
    expect(sent).toHaveLength(rounds);
    expect([...sent].sort()).toEqual(rows.map((r) => r.messageId).sort());
  } finally {
    await check.close();
  }
}

describe('kill -9 between the write of an email and its send', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const step of cleanups.reverse()) await step();
  });

  it.skipIf(inPostgresPass)(
    'embedded database: each report sent once across the restarts',
    async () => {
      const relay = await startRelay({ mode: 'accept' });
      cleanups.push(() => relay.close());
      const dataDir = mkdtempSync(join(tmpdir(), 'synchro-mail-kill-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      await killRounds({ dataDir }, { DATA_DIR: dataDir, DEMO: '0' }, relay, 2);
    },
    180_000,
  );

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'PostgreSQL: the same',
    async () => {
      const relay = await startRelay({ mode: 'accept' });
      cleanups.push(() => relay.close());
      const fresh = await freshDatabase(process.env.TEST_DATABASE_URL as string);
      cleanups.push(() => fresh.drop());
      const dataDir = mkdtempSync(join(tmpdir(), 'synchro-mail-kill-pg-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      await killRounds(
        { databaseUrl: fresh.url, dataDir },
        { DATABASE_URL: fresh.url, SESSION_SECRET: 's'.repeat(48), DATA_DIR: dataDir },
        relay,
        2,
      );
    },
    180_000,
  );
});
