import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/types.ts';
import { DIGEST_GATHER_MS } from '../../domain/mail-rules.ts';
import { connectorCall, importRecord, transaction } from '../../../test/helpers/connector.ts';
import { openTestDb } from '../../../test/helpers/db.ts';
import {
  mailHarness,
  mailInstallation,
  MAIL_FROM,
  outboxRows,
  PUBLIC_URL,
  testMailer,
  type MailHarness,
} from '../../../test/helpers/mail.ts';
import { header, startRelay, type TestRelay } from '../../../test/helpers/smtp-relay.ts';

/**
 * Each notification rule of docs/mail.md, against a real SMTP server started here: what arrives
 * through the connector API writes the outbox row(s) the rule says, and the sender sends each
 * exactly once, with what the rule says in it. Both databases.
 */

let db: Db;
let relay: TestRelay;
let h: MailHarness;

beforeAll(async () => {
  db = await openTestDb();
  relay = await startRelay({ mode: 'accept' });
  h = await mailHarness(db, testMailer(relay.url));
});
afterAll(async () => {
  await h.close();
  await relay.close();
  await db.close();
});

const MINUTE = 60_000;
const received = (syncId: string) =>
  relay.received.filter((m) => (header(m.raw, 'Subject') ?? '').includes(syncId));

async function post(token: string, path: string, payload: unknown) {
  const res = await connectorCall(h.app, 'POST', path, token, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

async function reportSync(token: string, dateHeure: string, type = 'ComplÃ¨te') {
  const res = await connectorCall(h.app, 'PATCH', '/configuration', token, {
    DerSynchro: {
      DateHeure: dateHeure,
      TypeDeSync: type,
      Duree: '00:04:11',
      NbEnreg: '1838',
      Vitesse: '5927',
      Taille: '3,721 Mo',
      DureeAlerte: '0',
      TailleAlerte: '0',
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('« Envoyer un rapport de synchro par mail »', () => {
  it('one report per new last sync, listing the errors that arrived since the previous one, sent once', async () => {
    const inst = await mailInstallation(h.app, db, 'MAILREP1', { envoyerRapport: true });
    await post(inst.token, '/import-records', {
      records: [
        importRecord({ RefDoc: 'REJ-A', Etat: -1 }),
        importRecord({ RefDoc: 'OK-B', Etat: 1 }),
        importRecord({ RefDoc: 'WAIT-C', Etat: 0 }),
      ],
    });
    await post(inst.token, '/transactions', {
      transactions: [transaction({ ID: 'T-ERR-1', Err: 1, RefDoc: 'TX-REF' }), transaction({ Err: 0 })],
    });
    await reportSync(inst.token, '20260302095500000');
    // The same last sync written again (a retried PATCH, another part) is no new sync.
    await reportSync(inst.token, '20260302095500000');
    await connectorCall(h.app, 'PATCH', '/configuration', inst.token, {
      Info: { VersionConnecteur: '6.19.5' },
    });

    const rows = await outboxRows(db, inst.id);
    expect(rows.map((r) => [r.kind, r.state])).toEqual([['sync-report', 'pending']]);
    await h.sender.runOnce();
    await h.sender.runOnce();
    const mails = received('MAILREP1');
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.to).toEqual(['admin@exemple.fr', 'compta@exemple.fr']);
    expect(header(mail?.raw ?? '', 'From')).toContain('console@exemple.fr');
    expect(header(mail?.raw ?? '', 'Subject')).toBe(
      'Rapport de synchronisation MAILREP1\u00a0: Complète du 02/03/2026 09:55, 2 erreurs',
    );
    expect(mail?.raw).toMatch(/Content-Type: multipart\/alternative/);
    expect(mail?.raw).toMatch(/Content-Type: text\/plain; charset=utf-8/);
    expect(mail?.raw).toMatch(/Content-Type: text\/html; charset=utf-8/);
    expect(mail?.raw).not.toMatch(/<img|src=["']http/i);

    const [row] = await outboxRows(db, inst.id);
    expect(row?.state).toBe('sent');
    expect(header(mail?.raw ?? '', 'Message-ID')).toBe(row?.message_id);
    const text = row?.text_body ?? '';
    expect(text).toContain('Type\u00a0: Complète');
    expect(text).toContain('Durée\u00a0: 00:04:11');
    expect(text).toContain('Enregistrements\u00a0: 1\u202f838');
    expect(text).toContain('Volume\u00a0: 3,721 Mo');
    expect(text).toContain('REJ-A');
    expect(text).toContain(`${PUBLIC_URL}/import-history?search=REJ-A&errors=1`);
    expect(text).toContain('T-ERR-1');
    expect(text).toContain(`${PUBLIC_URL}/transaction-logs?search=TX-REF&errors=1`);
    expect(text).toContain('1 saisie mobile importée');
    expect(text).not.toContain('WAIT-C');
    expect(row?.html_body).toContain('<html lang="fr">');
    expect(row?.html_body).toContain(
      'href="https://console.exemple.fr/import-history?search=REJ-A&amp;errors=1"',
    );

    // The next sync reports only what came after the first report.
    await post(inst.token, '/import-records', { records: [importRecord({ RefDoc: 'REJ-D', Etat: -1 })] });
    await reportSync(inst.token, '20260302105500000');
    await h.sender.runOnce();
    const second = (await outboxRows(db, inst.id))[1];
    expect(second?.state).toBe('sent');
    expect(second?.text_body).toContain('REJ-D');
    expect(second?.text_body).not.toContain('REJ-A');
    expect(received('MAILREP1')).toHaveLength(2);
  });

  it('nothing is written when the box is not ticked or no address is set', async () => {
    const off = await mailInstallation(h.app, db, 'MAILREP2', { envoyerRapport: false, notifImp: false });
    await reportSync(off.token, '20260302095500000');
    const noAddress = await mailInstallation(h.app, db, 'MAILREP3', {
      envoyerRapport: true,
      mailDestinataire: '',
    });
    await reportSync(noAddress.token, '20260302095500000');
    expect(await outboxRows(db, off.id)).toEqual([]);
    expect(await outboxRows(db, noAddress.id)).toEqual([]);
  });
});

describe('Notification Import', () => {
  it('after an import sync: the records imported and rejected since the previous report', async () => {
    const inst = await mailInstallation(h.app, db, 'MAILIMP1', { notifImp: true });
    const queued = importRecord({ RefDoc: 'QUEUED-1', Etat: 0 });
    const refused = importRecord({ RefDoc: 'QUEUED-2', Etat: 0 });
    await post(inst.token, '/import-records', { records: [queued, refused] });
    await post(inst.token, `/import-records/${String(queued.IDInterne)}/result`, { Etat: 1 });
    // The same result twice is the same as once.
    await post(inst.token, `/import-records/${String(queued.IDInterne)}/result`, { Etat: 1 });
    await post(inst.token, `/import-records/${String(refused.IDInterne)}/result`, {
      Etat: -1,
      Log: 'Client inconnu',
    });
    // A complete sync is not an import sync: no import email.
    await reportSync(inst.token, '20260302090000000');
    expect(await outboxRows(db, inst.id)).toEqual([]);
    await post(inst.token, '/import-records', { records: [importRecord({ RefDoc: 'NEW-OK', Etat: 1 })] });
    await reportSync(inst.token, '20260302093000000', 'Import des saisies');
    const rows = await outboxRows(db, inst.id);
    expect(rows.map((r) => r.kind)).toEqual(['import']);
    await h.sender.runOnce();
    const [row] = await outboxRows(db, inst.id);
    expect(row?.state).toBe('sent');
    expect(row?.subject).toBe('Import des saisies MAILIMP1\u00a0: 1 importée, 0 rejetée');
    expect(row?.text_body).toContain('NEW-OK');
    // QUEUED-1 and QUEUED-2 came before the complete sync's report: they were told then (nothing
    // was sent, Notification Import only follows import syncs).
    expect(row?.text_body).not.toContain('QUEUED-1');
    expect(received('MAILIMP1')).toHaveLength(1);
  });
});

describe('Notification Erreur', () => {
  it('groups the errors of the first minute, then at most one email per 15 minutes, each listing what arrived since', async () => {
    const inst = await mailInstallation(h.app, db, 'MAILERR1', { notifErr: true });
    const start = h.clock.now.getTime();
    await post(inst.token, '/import-records', {
      records: [importRecord({ RefDoc: 'E1', Etat: -1 }), importRecord({ RefDoc: 'E2', Etat: -1 })],
    });
    h.clock.advance(10_000);
    await post(inst.token, '/transactions', {
      transactions: [transaction({ ID: 'T-E3', Err: 1, RefDoc: 'E3' })],
    });
    // Records without error and duplicates add nothing.
    await post(inst.token, '/import-records', { records: [importRecord({ RefDoc: 'FINE', Etat: 0 })] });

    let rows = await outboxRows(db, inst.id);
    expect(rows.map((r) => [r.kind, r.state])).toEqual([['errors', 'gathering']]);
    expect(rows[0]?.due_at.getTime()).toBe(start + DIGEST_GATHER_MS);
    h.clock.advance(20_000);
    await h.sender.runOnce();
    expect(received('MAILERR1')).toHaveLength(0);
    h.clock.advance(DIGEST_GATHER_MS);
    await h.sender.runOnce();
    expect(received('MAILERR1')).toHaveLength(1);
    rows = await outboxRows(db, inst.id);
    expect(rows[0]?.state).toBe('sent');
    expect(rows[0]?.subject).toBe(
      'Erreurs de synchronisation MAILERR1\u00a0: 2 enregistrements et 1 transaction en erreur',
    );
    for (const ref of ['E1', 'E2', 'T-E3']) expect(rows[0]?.text_body).toContain(ref);
    expect(rows[0]?.text_body).not.toContain('FINE');

    // Errors after the first email wait for the next quarter hour, together.
    h.clock.advance(2 * MINUTE);
    await post(inst.token, '/import-records', { records: [importRecord({ RefDoc: 'E4', Etat: -1 })] });
    h.clock.advance(5 * MINUTE);
    await post(inst.token, '/import-records', { records: [importRecord({ RefDoc: 'E5', Etat: -1 })] });
    rows = await outboxRows(db, inst.id);
    expect(rows).toHaveLength(2);
    expect(rows[1]?.due_at.getTime()).toBe(start + DIGEST_GATHER_MS + 15 * MINUTE);
    await h.sender.runOnce();
    expect(received('MAILERR1')).toHaveLength(1);
    h.clock.now = new Date(start + DIGEST_GATHER_MS + 15 * MINUTE);
    await h.sender.runOnce();
    await h.sender.runOnce();
    expect(received('MAILERR1')).toHaveLength(2);
    rows = await outboxRows(db, inst.id);
    expect(rows[1]?.text_body).toContain('E4');
    expect(rows[1]?.text_body).toContain('E5');
    expect(rows[1]?.text_body).not.toContain('E1 ');
    // Every error in exactly one email.
    const all = rows.map((r) => r.text_body ?? '').join('\n');
    for (const ref of ['E1', 'E2', 'T-E3', 'E4', 'E5'])
      expect(all.split(`- ${ref} –`).length - 1, ref).toBe(1);
  });

  it('an import result in error counts as an error arriving', async () => {
    const inst = await mailInstallation(h.app, db, 'MAILERR2', { notifErr: true });
    const record = importRecord({ RefDoc: 'LATE-ERR', Etat: 0 });
    await post(inst.token, '/import-records', { records: [record] });
    expect(await outboxRows(db, inst.id)).toEqual([]);
    await post(inst.token, `/import-records/${String(record.IDInterne)}/result`, { Etat: -1 });
    const rows = await outboxRows(db, inst.id);
    expect(rows.map((r) => r.kind)).toEqual(['errors']);
    expect(JSON.stringify(rows[0]?.facts)).toContain('LATE-ERR');
  });

  it('a refused batch writes no email (all or nothing)', async () => {
    const inst = await mailInstallation(h.app, db, 'MAILERR3', { notifErr: true });
    const res = await connectorCall(h.app, 'POST', '/import-records', inst.token, {
      records: [importRecord({ Etat: -1 }), importRecord({ DateHeure: 'pas une date' })],
    });
    expect(res.statusCode).toBe(400);
    expect(await outboxRows(db, inst.id)).toEqual([]);
  });
});

describe('Notification Info: the automate service', () => {
  it('offline after 24 h of silence: one email per silence; back online: one email', async () => {
    const inst = await mailInstallation(h.app, db, 'MAILINF1', { notifInf: true });
    const report = () =>
      connectorCall(h.app, 'POST', '/automate', inst.token, {
        port: 8085,
        version: '6.11.23.9',
        machineName: 'SRV-ERP',
        ip: '8.8.4.4',
      });
    expect((await report()).statusCode).toBe(200);
    h.clock.advance(23 * 3600_000);
    await h.sender.runOnce();
    expect(await outboxRows(db, inst.id)).toEqual([]);
    h.clock.advance(2 * 3600_000);
    await h.sender.runOnce();
    await h.sender.runOnce();
    let rows = await outboxRows(db, inst.id);
    expect(rows.map((r) => [r.kind, r.state])).toEqual([['automate-offline', 'sent']]);
    expect(rows[0]?.text_body).toContain('SRV-ERP');
    expect(rows[0]?.subject).toBe('Service d’automate hors ligne (MAILINF1)');
    h.clock.advance(3600_000);
    expect((await report()).statusCode).toBe(200);
    // A heartbeat right after is no comeback.
    h.clock.advance(5 * MINUTE);
    expect((await report()).statusCode).toBe(200);
    await h.sender.runOnce();
    rows = await outboxRows(db, inst.id);
    expect(rows.map((r) => [r.kind, r.state])).toEqual([
      ['automate-offline', 'sent'],
      ['automate-online', 'sent'],
    ]);
    expect(received('MAILINF1')).toHaveLength(2);
  });
});

describe('the sender address', () => {
  it('is MAIL_FROM', () => {
    const sent = relay.received[0];
    expect(sent?.from).toBe('console@exemple.fr');
    expect(MAIL_FROM).toContain(sent?.from ?? 'none');
  });
});
