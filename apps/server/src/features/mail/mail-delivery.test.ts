import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/types.ts';
import { ConfigCache } from '../../domain/config-cache.ts';
import { claimDueMails, enqueueMail } from '../../domain/mail-outbox.ts';
import { retryDelayMs, startMailSender, type Mailer } from '../../domain/mail-sender.ts';
import { readSmtp, type SmtpSettings } from '../../config/mail-env.ts';
import { smtpTransport } from '../../mail/transport.ts';
import { addInstallation } from '../../../test/helpers/app.ts';
import { openTestDb, openTestDbPair, usingPostgres } from '../../../test/helpers/db.ts';
import { outboxRows, testClock, testMailer, type Clock } from '../../../test/helpers/mail.ts';
import {
  header,
  selfSignedCertificate,
  startRelay,
  type RelayMode,
  type TestRelay,
} from '../../../test/helpers/smtp-relay.ts';

/**
 * How an email leaves (docs/mail.md, Sending), against real SMTP servers started here: accepted,
 * refused for good (550) or for now (451), STARTTLS with a certificate checked, a relay that hangs;
 * a restart between the write and the send, a sender stopped in the middle, two senders on one
 * PostgreSQL. Each email is sent once.
 */

let db: Db;
let installationId: string;
const relays: TestRelay[] = [];

beforeAll(async () => {
  db = await openTestDb();
  installationId = (await addInstallation(db, { syncId: 'MAILDLV1' })).installation.id;
});
afterAll(async () => {
  for (const r of relays) await r.close();
  await db.close();
});

async function relay(mode: RelayMode, tls?: { key: string; cert: string }) {
  const r = await startRelay(mode, tls);
  relays.push(r);
  return r;
}

let counter = 0;
/** `n` rows due now (order-refused emails, the simplest facts). */
async function writeMails(
  clock: Clock,
  n = 1,
  onDb: Db = db,
  recipients = ['admin@exemple.fr'],
): Promise<string[]> {
  return onDb.transaction(async (tx) => {
    const ids: string[] = [];
    for (let k = 0; k < n; k++) {
      counter += 1;
      ids.push(
        await enqueueMail(tx, {
          installationId,
          mail: {
            kind: 'order-refused',
            facts: {
              syncId: 'MAILDLV1',
              zone: 'Europe/Paris',
              type: 'C',
              outcome: 'refused',
              retInfo: `Refus n°${counter}`,
              at: clock.now.toISOString(),
            },
          },
          recipients,
          dueAt: clock.now,
          now: clock.now,
        }),
      );
    }
    return ids;
  });
}

function sender(mailer: Mailer, clock: Clock, onDb: Db = db) {
  return startMailSender({ db: onDb, mailer, configs: new ConfigCache(), now: () => clock.now, loop: false });
}

const rowsOf = async (ids: string[]) =>
  (await outboxRows(db, installationId)).filter((r) => ids.includes(r.id));
const messageIds = (r: TestRelay) => r.received.map((m) => header(m.raw, 'Message-ID'));

describe('the relay', () => {
  it('accepted: sent once, with its Message-ID kept on the row', async () => {
    const accept = await relay({ mode: 'accept' });
    const clock = testClock();
    const ids = await writeMails(clock, 3);
    const s = sender(testMailer(accept.url), clock);
    await s.runOnce();
    await s.runOnce();
    await s.stop();
    const rows = await rowsOf(ids);
    expect(rows.map((r) => r.state)).toEqual(['sent', 'sent', 'sent']);
    expect(messageIds(accept).sort()).toEqual(rows.map((r) => r.message_id).sort());
    expect(accept.received[0]?.raw).toContain('Auto-Submitted: auto-generated');
  });

  it('550: failed at once with the relay’s answer, never tried again', async () => {
    const refuse = await relay({ mode: 'refuse' });
    const clock = testClock();
    const [id] = await writeMails(clock);
    const s = sender(testMailer(refuse.url), clock);
    await s.runOnce();
    clock.advance(3 * 3600_000);
    await s.runOnce();
    await s.stop();
    const [row] = await rowsOf([id as string]);
    expect(row?.state).toBe('failed');
    expect(row?.attempts).toBe(1);
    expect(row?.last_error).toMatch(
      /^Le serveur d’envoi \(127\.0\.0\.1:\d+\) a refusé l’email : 550 5\.1\.1 <admin@exemple\.fr>/,
    );
    expect(refuse.received).toHaveLength(0);
  });

  it('451: tried again after 1, 2, 4 … minutes, then failed 24 hours after it was written', async () => {
    const later = await relay({ mode: 'refuse', code: 451 });
    const clock = testClock();
    const [id] = await writeMails(clock);
    const s = sender(testMailer(later.url), clock);
    await s.runOnce();
    let [row] = await rowsOf([id as string]);
    expect(row?.state).toBe('pending');
    expect(row?.last_error).toContain('451');
    expect(row?.due_at.getTime()).toBe(clock.now.getTime() + retryDelayMs(1));
    clock.advance(30_000);
    await s.runOnce();
    expect((await rowsOf([id as string]))[0]?.attempts).toBe(1);
    let attempts = 1;
    while (attempts < 40) {
      [row] = await rowsOf([id as string]);
      if (row?.state !== 'pending') break;
      clock.now = row.due_at;
      await s.runOnce();
      attempts += 1;
    }
    await s.stop();
    [row] = await rowsOf([id as string]);
    expect(row?.state).toBe('failed');
    expect(row?.last_error).toContain('Abandonné après 24 heures d’essais.');
    expect(attempts).toBeGreaterThan(10);
    expect(attempts).toBeLessThan(25);
  });

  it('STARTTLS: sent over TLS when the certificate is trusted, refused and kept when it is not', async () => {
    const tls = selfSignedCertificate();
    const starttls = await relay({ mode: 'starttls' }, tls);
    const clock = testClock();
    const [untrustedId] = await writeMails(clock);
    const untrusted = sender(testMailer(starttls.url), clock);
    await untrusted.runOnce();
    await untrusted.stop();
    let [row] = await rowsOf([untrustedId as string]);
    expect(row?.state).toBe('pending');
    expect(row?.last_error).toMatch(
      /^Le certificat du serveur d’envoi \(127\.0\.0\.1:\d+\) n’est pas reconnu/,
    );
    expect(starttls.received).toHaveLength(0);

    const trusted = sender(testMailer(starttls.url, { ca: tls.cert }), clock);
    clock.advance(retryDelayMs(1));
    await trusted.runOnce();
    await trusted.stop();
    [row] = await rowsOf([untrustedId as string]);
    expect(row?.state).toBe('sent');
    expect(starttls.received).toHaveLength(1);
    expect(starttls.received[0]?.secure).toBe(true);
  });

  it('a relay that never answers: the attempt ends at the timeout and the email waits for its next try', async () => {
    const hang = await relay({ mode: 'hang' });
    const clock = testClock();
    const [id] = await writeMails(clock);
    const s = sender(testMailer(hang.url, { timeoutMs: 1500 }), clock);
    const started = Date.now();
    await s.runOnce();
    await s.stop();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    const [row] = await rowsOf([id as string]);
    expect(row?.state).toBe('pending');
    expect(row?.last_error).toMatch(
      /^Le serveur d’envoi \(127\.0\.0\.1:\d+\) n’a pas répondu dans les 2 secondes\.$/,
    );
  });

  it('a relay slow at every step but within each step’s time: sent once, not retried as a timeout', async () => {
    // Three steps of 600 ms: 1.8 s in all, over the 1.5 s that each step is given.
    const slow = await relay({ mode: 'slow', stepMs: 600 });
    const clock = testClock();
    const [id] = await writeMails(clock);
    const s = sender(testMailer(slow.url, { timeoutMs: 1500 }), clock);
    await s.runOnce();
    await s.stop();
    const [row] = await rowsOf([id as string]);
    expect(row?.state).toBe('sent');
    expect(slow.received).toHaveLength(1);
  });

  it('a relay that refuses one recipient and takes the other: failed, saying who did not get it, never sent again', async () => {
    const some = await relay({ mode: 'refuse', only: ['busy@exemple.fr'] });
    const clock = testClock();
    const [id] = await writeMails(clock, 1, db, ['admin@exemple.fr', 'busy@exemple.fr']);
    const s = sender(testMailer(some.url), clock);
    await s.runOnce();
    clock.advance(retryDelayMs(5));
    await s.runOnce();
    await s.stop();
    const [row] = await rowsOf([id as string]);
    expect(row?.state).toBe('failed');
    expect(row?.last_error).toMatch(
      /^Le serveur d’envoi \(127\.0\.0\.1:\d+\) a refusé le destinataire busy@exemple\.fr : l’email n’a été remis qu’aux autres\.$/,
    );
    // Once (rows left pending by the tests before may go to this relay too: only this one counts).
    const mine = some.received.filter((m) => m.raw.includes(`synchro-mail-${id}@`));
    expect(mine.map((m) => m.to)).toEqual([['admin@exemple.fr']]);
  });

  it('a relay that asks for credentials: SMTP_USER/SMTP_PASSWORD are used; wrong ones fail without being quoted', async () => {
    const auth = await relay({ mode: 'auth', user: 'relay-user', password: 'relay-P4ss-word' });
    const clock = testClock();
    const [goodId] = await writeMails(clock);
    const good = startMailSender({
      db,
      mailer: {
        ...testMailer(null),
        transport: smtpTransport({
          ...(readSmtp({
            SMTP_URL: auth.url,
            SMTP_USER: 'relay-user',
            SMTP_PASSWORD: 'relay-P4ss-word',
          }) as SmtpSettings),
        }),
      },
      configs: new ConfigCache(),
      now: () => clock.now,
      loop: false,
    });
    await good.runOnce();
    await good.stop();
    expect((await rowsOf([goodId as string]))[0]?.state).toBe('sent');
    expect(auth.received).toHaveLength(1);

    const [badId] = await writeMails(clock);
    const bad = sender(testMailer(`smtp://relay-user:not-the-P4ss@127.0.0.1:${auth.port}`), clock);
    await bad.runOnce();
    await bad.stop();
    const [row] = await rowsOf([badId as string]);
    expect(row?.state).toBe('failed');
    expect(row?.last_error).toMatch(
      /^Le serveur d’envoi \(127\.0\.0\.1:\d+\) a refusé l’identification \(SMTP_USER, SMTP_PASSWORD\)/,
    );
    expect(row?.last_error).not.toContain('not-the-P4ss');
  });

  it('without SMTP_URL: kept, readable, « Non envoyé : aucun serveur d’envoi configuré »', async () => {
    const clock = testClock();
    const [id] = await writeMails(clock);
    const s = sender(testMailer(null), clock);
    await s.runOnce();
    await s.stop();
    const [row] = await rowsOf([id as string]);
    expect(row?.state).toBe('unconfigured');
    expect(row?.last_error).toBe('Non envoyé : aucun serveur d’envoi configuré (SMTP_URL).');
    expect(row?.text_body).toContain(`Refus n°`);
  });
});

describe('restarts', () => {
  it('written, then the server restarts before sending: sent once by the next one', async () => {
    const accept = await relay({ mode: 'accept' });
    const clock = testClock();
    const ids = await writeMails(clock, 4);
    // The first server stops before its sender ever looked (a restart between write and send).
    const first = sender(testMailer(accept.url), clock);
    await first.stop();
    const second = sender(testMailer(accept.url), clock);
    await second.runOnce();
    await second.runOnce();
    await second.stop();
    expect((await rowsOf(ids)).map((r) => r.state)).toEqual(['sent', 'sent', 'sent', 'sent']);
    const mine = (await rowsOf(ids)).map((r) => r.message_id);
    expect(
      messageIds(accept)
        .filter((m) => mine.includes(m))
        .sort(),
    ).toEqual([...mine].sort());
  });

  it('a sender that died holding a claim: its emails are sent once by another after the lease', async () => {
    const accept = await relay({ mode: 'accept' });
    const clock = testClock();
    const ids = await writeMails(clock, 2);
    // Claimed by a process that then died (no outcome will ever come from it).
    const dead = await db.transaction((tx) =>
      claimDueMails(tx, 'dead-process', clock.now, new Date(clock.now.getTime() + 120_000), 10),
    );
    expect(dead.map((r) => r.id).sort()).toEqual([...ids].sort());
    const s = sender(testMailer(accept.url), clock);
    await s.runOnce();
    expect(accept.received).toHaveLength(0);
    clock.advance(121_000);
    await s.runOnce();
    await s.runOnce();
    await s.stop();
    const rows = await rowsOf(ids);
    expect(rows.map((r) => r.state)).toEqual(['sent', 'sent']);
    // Each of them once (the relay also got older rows of this file that came due meanwhile).
    for (const r of rows) expect(messageIds(accept).filter((m) => m === r.message_id)).toHaveLength(1);
  });

  it('stop() finishes the send under way and gives back the rest of its claim', async () => {
    const hang = await relay({ mode: 'hang' });
    const clock = testClock();
    const ids = await writeMails(clock, 3);
    const s = sender(testMailer(hang.url, { timeoutMs: 1000 }), clock);
    const pass = s.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await s.stop();
    await pass;
    const rows = await rowsOf(ids);
    expect(rows.map((r) => r.state).sort()).toEqual(['pending', 'pending', 'pending']);
    // One attempt was made and failed; the two others were given back untried, due now.
    expect(rows.map((r) => r.attempts).sort()).toEqual([0, 0, 1]);
    for (const r of rows.filter((x) => x.attempts === 0))
      expect(r.due_at.getTime()).toBe(clock.now.getTime());
  });
});

describe.runIf(usingPostgres())('two server processes on one PostgreSQL', () => {
  it('two senders, 40 emails due: each sent exactly once', async () => {
    const [one, two] = await openTestDbPair();
    try {
      const accept = await relay({ mode: 'accept' });
      const { installation } = await addInstallation(one, { syncId: 'MAILTWO1' });
      const clock = testClock();
      const ids = await one.transaction(async (tx) => {
        const out: string[] = [];
        for (let k = 0; k < 40; k++)
          out.push(
            await enqueueMail(tx, {
              installationId: installation.id,
              mail: {
                kind: 'automate-offline',
                facts: {
                  syncId: 'MAILTWO1',
                  zone: 'Europe/Paris',
                  lastReportAt: clock.now.toISOString(),
                  machineName: `M${k}`,
                  version: '1',
                },
              },
              recipients: ['admin@exemple.fr'],
              dueAt: clock.now,
              now: clock.now,
            }),
          );
        return out;
      });
      const a = startMailSender({
        db: one,
        mailer: testMailer(accept.url),
        configs: new ConfigCache(),
        now: () => clock.now,
        loop: false,
        batch: 3,
      });
      const b = startMailSender({
        db: two,
        mailer: testMailer(accept.url),
        configs: new ConfigCache(),
        now: () => clock.now,
        loop: false,
        batch: 3,
      });
      const [sentA, sentB] = await Promise.all([a.runOnce(), b.runOnce()]);
      await Promise.all([a.runOnce(), b.runOnce()]);
      await a.stop();
      await b.stop();
      expect(sentA + sentB).toBe(40);
      expect(sentA).toBeGreaterThan(0);
      expect(sentB).toBeGreaterThan(0);
      const states = await one.query<{ state: string; n: number }>(
        `SELECT state, count(*)::int AS n FROM mail_outbox WHERE installation_id = $1 GROUP BY state`,
        [installation.id],
      );
      expect(states).toEqual([{ state: 'sent', n: 40 }]);
      const ids40 = accept.received.map((m) => header(m.raw, 'Message-ID'));
      expect(new Set(ids40).size).toBe(40);
      expect(ids40).toHaveLength(40);
      expect(ids).toHaveLength(40);
    } finally {
      await two.close();
      await one.close();
    }
  });
});
