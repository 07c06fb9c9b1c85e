import type { TAuditPage, TOutboxList, TOutboxMailDetail, TTestReportAnswer } from '@synchro/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/types.ts';
import { FIXTURE_CONFIG } from '../../../test/helpers/app.ts';
import { connectorCall } from '../../../test/helpers/connector.ts';
import { openTestDb } from '../../../test/helpers/db.ts';
import {
  mailHarness,
  mailInstallation,
  outboxRows,
  testMailer,
  type MailHarness,
} from '../../../test/helpers/mail.ts';
import { automateAnswer, answering, scriptedAutomate } from '../../../test/helpers/scripted-automate.ts';
import { header, startRelay, type TestRelay } from '../../../test/helpers/smtp-relay.ts';

/**
 * « Test rapport » (POST /api/mail/test-report) with and without a relay, refused, hanging; its
 * rate limit; « Emails envoyés » (GET /api/mail/outbox, /{id}); a sync order that did not go
 * through (Notification Info). Real SMTP servers started here; both databases.
 */

let db: Db;
const relays: TestRelay[] = [];
const harnesses: MailHarness[] = [];

beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  for (const h of harnesses) await h.close();
  for (const r of relays) await r.close();
  await db.close();
});

async function harness(relayUrl: string | null, timeoutMs?: number) {
  // The order test's scripted automate listens on loopback.
  const h = await mailHarness(db, testMailer(relayUrl, { timeoutMs }), undefined, {
    automateNetworks: 'loopback',
  });
  harnesses.push(h);
  return h;
}

async function relay(mode: Parameters<typeof startRelay>[0]) {
  const r = await startRelay(mode);
  relays.push(r);
  return r;
}

const testReport = (h: MailHarness, cookie: string, mailDestinataire: unknown) =>
  h.app.inject({
    method: 'POST',
    url: '/api/mail/test-report',
    headers: { cookie },
    payload: { mailDestinataire },
  });

describe('« Test rapport »', () => {
  it('with a relay: sent now to the address of the field, the last sync in it', async () => {
    const accept = await relay({ mode: 'accept' });
    const h = await harness(accept.url);
    const inst = await mailInstallation(h.app, db, 'MAILTST1', { mailDestinataire: 'saved@exemple.fr' });
    await connectorCall(h.app, 'PATCH', '/configuration', inst.token, {
      DerSynchro: { DateHeure: '20260301220000000', TypeDeSync: 'IncrÃ©mentale', NbEnreg: '42' },
    });
    const res = await testReport(h, inst.cookie, 'typed@exemple.fr; other@exemple.fr');
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<TTestReportAnswer>();
    expect(answer).toEqual({
      outcome: 'sent',
      message: 'Rapport de test envoyé à typed@exemple.fr, other@exemple.fr',
      mailId: expect.any(String),
    });
    expect(accept.received).toHaveLength(1);
    expect(accept.received[0]?.to).toEqual(['typed@exemple.fr', 'other@exemple.fr']);
    expect(header(accept.received[0]?.raw ?? '', 'Subject')).toBe(
      'Rapport de test MAILTST1\u00a0: les emails de la console vous parviennent',
    );
    const [row] = await outboxRows(db, inst.id);
    expect(row?.state).toBe('sent');
    expect(row?.text_body).toContain('Type\u00a0: Incrémentale');
    expect(row?.text_body).toContain('Date\u00a0: 01/03/2026 22:00 (UTC+01:00)');
    // The sender loop never sends it again.
    await h.sender.runOnce();
    expect(accept.received).toHaveLength(1);
    // The journal names it in French, not by its key.
    const journal = await h.app.inject({ url: '/api/audit', headers: { cookie: inst.cookie } });
    const rows = journal.json<TAuditPage>().rows.filter((r) => r.action === 'mail.test-report');
    expect(rows.map((r) => r.label)).toEqual(['Envoi d’un rapport de test par email']);
  });

  it('without a relay: « Aucun serveur d’envoi configuré (SMTP_URL) », the email kept and readable', async () => {
    const h = await harness(null);
    const inst = await mailInstallation(
      h.app,
      db,
      'MAILTST2',
      {},
      { configText: FIXTURE_CONFIG.replace(/<DateHeure>\d+<\/DateHeure>/, '<DateHeure></DateHeure>') },
    );
    const res = await testReport(h, inst.cookie, 'admin@exemple.fr');
    expect(res.json<TTestReportAnswer>()).toMatchObject({
      outcome: 'not-configured',
      message: 'Aucun serveur d’envoi configuré (SMTP_URL)',
    });
    const list = await h.app.inject({ url: '/api/mail/outbox', headers: { cookie: inst.cookie } });
    const body = list.json<TOutboxList>();
    expect(body.relayConfigured).toBe(false);
    expect(body.mails).toHaveLength(1);
    expect(body.mails[0]).toMatchObject({
      kind: 'test',
      state: 'unconfigured',
      recipients: 'admin@exemple.fr',
      lastError: 'Non envoyé : aucun serveur d’envoi configuré (SMTP_URL).',
    });
    // No sync reported yet: a sample.
    const detail = await h.app.inject({
      url: `/api/mail/outbox/${body.mails[0]?.id}`,
      headers: { cookie: inst.cookie },
    });
    const mail = detail.json<TOutboxMailDetail>();
    expect(mail.text).toContain('Exemple de rapport (aucune synchronisation encore signalée)');
    expect(mail.html).toContain('<html lang="fr">');
  });

  it('a relay that refuses: its answer; one that hangs: the timeout', async () => {
    const refuse = await relay({ mode: 'refuse' });
    const h = await harness(refuse.url);
    const inst = await mailInstallation(h.app, db, 'MAILTST3', {});
    const refused = (await testReport(h, inst.cookie, 'nobody@exemple.fr')).json<TTestReportAnswer>();
    expect(refused.outcome).toBe('refused');
    expect(refused.message).toMatch(
      /^Le serveur d’envoi \(127\.0\.0\.1:\d+\) a refusé l’email : 550 5\.1\.1 <nobody@exemple\.fr>: Recipient address rejected: User unknown$/,
    );

    const hang = await relay({ mode: 'hang' });
    const slow = await harness(hang.url, 1200);
    const inst2 = await mailInstallation(slow.app, db, 'MAILTST4', {});
    const timedOut = (await testReport(slow, inst2.cookie, 'admin@exemple.fr')).json<TTestReportAnswer>();
    expect(timedOut.outcome).toBe('timeout');
    expect(timedOut.message).toMatch(/n’a pas répondu dans les 1 secondes\.$/);
    // A failed test report is not sent again by the loop: the person was told.
    const [row] = await outboxRows(db, inst2.id);
    expect(row?.state).toBe('failed');
  });

  it('an invalid address is a French 400 and writes nothing', async () => {
    const h = await harness(null);
    const inst = await mailInstallation(h.app, db, 'MAILTST5', {});
    for (const address of ['', 'admin@exemple', 'a b@c.fr', 'a@b.fr;', 42]) {
      const res = await testReport(h, inst.cookie, address);
      expect(res.statusCode, String(address)).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('Adresse email invalide');
    }
    expect(await outboxRows(db, inst.id)).toEqual([]);
  });

  it('at most 5 a quarter of an hour per installation (429 with Retry-After), then again', async () => {
    const h = await harness(null);
    const inst = await mailInstallation(h.app, db, 'MAILTST6', {});
    for (let k = 0; k < 5; k++) {
      expect((await testReport(h, inst.cookie, 'admin@exemple.fr')).statusCode).toBe(200);
      h.clock.advance(60_000);
    }
    const refused = await testReport(h, inst.cookie, 'admin@exemple.fr');
    expect(refused.statusCode).toBe(429);
    // The oldest of the five was 5 minutes ago: a place frees in 10 minutes.
    expect(refused.headers['retry-after']).toBe(String(10 * 60));
    expect(refused.json<{ message: string }>().message).toBe(
      'Trop de rapports de test\u00a0: au plus 5 par quart d’heure. Réessayez dans 10 minutes.',
    );
    expect(await outboxRows(db, inst.id)).toHaveLength(5);
    h.clock.advance(10 * 60_000);
    expect((await testReport(h, inst.cookie, 'admin@exemple.fr')).statusCode).toBe(200);
  });
});

describe('« Emails envoyés »', () => {
  it('lists the newest first, each as it was sent; another installation’s email is 404', async () => {
    const h = await harness(null);
    const a = await mailInstallation(h.app, db, 'MAILBOXA', {});
    const b = await mailInstallation(h.app, db, 'MAILBOXB', {});
    await testReport(h, a.cookie, 'first@exemple.fr');
    h.clock.advance(1000);
    await testReport(h, a.cookie, 'second@exemple.fr');
    const bMail = (await testReport(h, b.cookie, 'b@exemple.fr')).json<TTestReportAnswer>().mailId;
    const list = (
      await h.app.inject({ url: '/api/mail/outbox', headers: { cookie: a.cookie } })
    ).json<TOutboxList>();
    expect(list.mails.map((m) => m.recipients)).toEqual(['second@exemple.fr', 'first@exemple.fr']);
    expect(list.displayTimeZone.zone).toBe('Europe/Paris');
    const foreign = await h.app.inject({ url: `/api/mail/outbox/${bMail}`, headers: { cookie: a.cookie } });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json<{ message: string }>().message).toBe('Email introuvable.');
  });
});

describe('Notification Info: a sync order that did not go through', () => {
  it('refused by the automate: one email with its answer; accepted: none', async () => {
    let answer = automateAnswer(0, 'Une synchronisation est déjà en cours');
    const peer = await scriptedAutomate((req, res) => answering(answer)(req, res));
    try {
      const accept = await relay({ mode: 'accept' });
      const h = await harness(accept.url);
      const inst = await mailInstallation(h.app, db, 'MAILORD1', { notifInf: true });
      await connectorCall(h.app, 'POST', '/automate', inst.token, {
        port: peer.port,
        version: '6.11.23.9',
        machineName: 'SRV-ERP',
        ip: '127.0.0.1',
      });
      const order = await h.app.inject({
        method: 'POST',
        url: '/api/sync-automate',
        headers: { cookie: inst.cookie },
        payload: { type: 'R' },
      });
      expect(order.json<{ outcome: string }>().outcome).toBe('refused');
      answer = automateAnswer(1, 'OK');
      h.clock.advance(60_000);
      const accepted = await h.app.inject({
        method: 'POST',
        url: '/api/sync-automate',
        headers: { cookie: inst.cookie },
        payload: { type: 'C' },
      });
      expect(accepted.json<{ outcome: string }>().outcome).toBe('accepted');
      const rows = await outboxRows(db, inst.id);
      expect(rows.map((r) => r.kind)).toEqual(['order-refused']);
      await h.sender.runOnce();
      const [row] = await outboxRows(db, inst.id);
      expect(row?.state).toBe('sent');
      expect(row?.subject).toBe('Demande de synchronisation non aboutie (MAILORD1)');
      expect(row?.text_body).toContain('«\u00a0Incrémentale\u00a0»');
      expect(row?.text_body).toContain('Réponse');
      expect(row?.text_body).toContain('Une synchronisation est déjà en cours');
    } finally {
      await peer.close();
    }
  });

  const orderSync = (h: MailHarness, cookie: string, type: 'C' | 'R' | 'I') =>
    h.app.inject({ method: 'POST', url: '/api/sync-automate', headers: { cookie }, payload: { type } });

  /** The installation's one email, sent: its row and text. */
  async function theEmail(h: MailHarness, inst: { id: string; syncId: string }) {
    expect(await outboxRows(db, inst.id)).toHaveLength(1);
    await h.sender.runOnce();
    const [row] = await outboxRows(db, inst.id);
    expect(row?.state).toBe('sent');
    expect(row?.subject).toBe(`Demande de synchronisation non aboutie (${inst.syncId})`);
    return { row, text: row?.text_body ?? '' };
  }

  it('no automate registered: the order cannot be sent, one email says so and why', async () => {
    const accept = await relay({ mode: 'accept' });
    const h = await harness(accept.url);
    const inst = await mailInstallation(h.app, db, 'MAILORD2', { notifInf: true });
    const order = await orderSync(h, inst.cookie, 'C');
    expect(order.json<{ outcome: string }>().outcome).toBe('no-automate');
    const { row, text } = await theEmail(h, inst);
    expect(row?.facts).toMatchObject({ outcome: 'no-automate', type: 'C' });
    expect(text).toContain('«\u00a0Complète\u00a0»');
    expect(text).toContain(
      'Aucun service d’automate n’est enregistré pour cette installation\u00a0: la demande n’a pas pu être envoyée. Installez le service sur le serveur de l’ERP, puis relancez la synchronisation.',
    );
    expect(text).toContain("Vous ne disposez pas actuellement du service d'automate");
    expect(accept.received).toHaveLength(1);
    // Clicked again: the same answer, no second email within the quarter hour; one after it.
    h.clock.advance(60_000);
    expect((await orderSync(h, inst.cookie, 'C')).json<{ outcome: string }>().outcome).toBe('no-automate');
    expect(await outboxRows(db, inst.id)).toHaveLength(1);
    h.clock.advance(15 * 60_000);
    expect((await orderSync(h, inst.cookie, 'R')).json<{ outcome: string }>().outcome).toBe('no-automate');
    expect(await outboxRows(db, inst.id)).toHaveLength(2);
  });

  it("the automate's address refused by the policy: one email with the reason and the policy's message", async () => {
    const accept = await relay({ mode: 'accept' });
    // The default policy (no AUTOMATE_NETWORKS): a private address is refused at order time.
    const h = await mailHarness(db, testMailer(accept.url));
    harnesses.push(h);
    const inst = await mailInstallation(h.app, db, 'MAILORD3', { notifInf: true });
    await db.query(
      `INSERT INTO automate_registrations (installation_id, ip, port, version, machine_name, reported_at)
       VALUES ($1, '10.0.0.5', 8080, '6.11.23.9', 'SRV-ERP', $2)`,
      [inst.id, h.clock.now],
    );
    const order = await orderSync(h, inst.cookie, 'I');
    expect(order.json<{ outcome: string }>().outcome).toBe('address-refused');
    const { row, text } = await theEmail(h, inst);
    expect(row?.facts).toMatchObject({ outcome: 'address-refused', type: 'I' });
    expect(text).toContain(
      'L’adresse déclarée par le service d’automate n’est pas autorisée par la console\u00a0: la demande ne lui a pas été envoyée.',
    );
    expect(text).toContain('L’adresse 10.0.0.5 est une adresse privée');
  });

  it('an unexpected failure during the order: one email, the order closed as an error', async () => {
    const peer = await scriptedAutomate(answering(automateAnswer(1, 'OK')));
    try {
      const accept = await relay({ mode: 'accept' });
      // The database fails the rate limit's count once: an error the console did not expect.
      let fail = true;
      const failing = new Proxy(db, {
        get(target, prop) {
          if (prop === 'query')
            return (sql: string, params?: readonly unknown[]) => {
              if (fail && sql.includes("IS DISTINCT FROM 'rate-limited'")) {
                fail = false;
                return Promise.reject(new Error('connection lost'));
              }
              return target.query(sql, params);
            };
          const value: unknown = Reflect.get(target, prop, target);
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      const h = await mailHarness(failing, testMailer(accept.url), undefined, {
        automateNetworks: 'loopback',
      });
      harnesses.push(h);
      const inst = await mailInstallation(h.app, db, 'MAILORD4', { notifInf: true });
      await connectorCall(h.app, 'POST', '/automate', inst.token, {
        port: peer.port,
        version: '6.11.23.9',
        machineName: 'SRV-ERP',
        ip: '127.0.0.1',
      });
      const order = await orderSync(h, inst.cookie, 'R');
      expect(order.statusCode).toBe(500);
      expect(peer.requests).toHaveLength(0);
      const { row, text } = await theEmail(h, inst);
      expect(row?.facts).toMatchObject({ outcome: 'error', type: 'R', retInfo: '' });
      expect(text).toContain(
        'Une erreur inattendue de la console a interrompu la demande\u00a0: impossible de savoir si elle est parvenue au service d’automate. Relancez la synchronisation\u00a0; si l’erreur se répète, contactez le support.',
      );
      expect(text).not.toContain('Message affiché dans la console');
    } finally {
      await peer.close();
    }
  });

  it('the console’s own refusals (not premium) write no email', async () => {
    const h = await harness(null);
    const inst = await mailInstallation(h.app, db, 'MAILORD5', { notifInf: true }, { premium: false });
    expect((await orderSync(h, inst.cookie, 'C')).json<{ outcome: string }>().outcome).toBe('not-premium');
    expect(await outboxRows(db, inst.id)).toEqual([]);
  });
});
