import { ZImportQueueAnswer } from '@synchro/contracts';
import { describe, expect, it } from 'vitest';
import { FIXTURE_CONFIG, useTestApp } from '../../../test/helpers/app.ts';
import {
  connectorCall,
  connectorInstallation,
  expectConnectorError,
  importRecord,
  transaction,
} from '../../../test/helpers/connector.ts';
import { INVALID_JSON_MESSAGE, INVALID_UTF8_MESSAGE } from '../../http/json-body.ts';
import { OFFLOAD_MIN_BYTES } from '../../offload/pool.ts';
import { readQueue } from './import-records.ts';

/** Import records (batch, queue, result) and transactions. */

const clock = new Date('2025-11-20T10:00:00Z');

const ctx = useTestApp({ now: () => clock });

interface RecordRow {
  id_interne: string;
  type_enreg: string;
  ref_doc: string;
  date_heure: Date;
  num_ligne: number;
  type_element: string;
  etat: number;
  log: string;
  enreg: string;
  has_file: boolean;
  received_at: Date;
}

async function records(installationId: string): Promise<RecordRow[]> {
  return ctx.db
    .query<RecordRow>(
      `SELECT id_interne, type_enreg, ref_doc, date_heure, num_ligne, type_element, etat, log,
            '.' || enreg AS enreg, has_file, received_at
     FROM import_records WHERE installation_id = $1 ORDER BY id`,
      [installationId],
    )
    .then((rows) => rows.map((r) => ({ ...r, enreg: r.enreg.slice(1) })));
}

async function countOf(table: string, installationId: string): Promise<number> {
  const [row] = await ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table} WHERE installation_id = $1`,
    [installationId],
  );
  return row?.n ?? -1;
}

const post = (token: string, recs: unknown[]) =>
  connectorCall(ctx.app, 'POST', '/import-records', token, { records: recs });
const postTx = (token: string, txs: unknown[]) =>
  connectorCall(ctx.app, 'POST', '/transactions', token, { transactions: txs });

describe('POST /import-records', () => {
  it('stores a batch: ids, XML and logs as sent; short texts decoded; times in UTC; files apart', async () => {
    const a = await connectorInstallation(ctx.db, 'REC1');
    const pdf = Buffer.from('%PDF-1.4 devis signé');
    const sent = [
      importRecord({
        IDInterne: 'NUXIDEVA61267c591917f0e1',
        TypeElement: 'CrÃ©ation',
        DateHeure: '2025-11-14T09:12:00',
        Log: 'Import OK\r\nLigne 2 : Ã©tÃ©',
        Fichier: { Nom: 'DEVIS-Ã©tÃ©.pdf', Contenu: pdf.toString('base64') },
        Enreg: '\uFEFF<?xml version="1.0"?><SyncNuxiDev><Libelle>Ã©tÃ©</Libelle></SyncNuxiDev>',
      }),
      importRecord({ DateHeure: '2025-07-01T09:12:00', Etat: '-1', NumLigne: '7' }),
      importRecord({ DateHeure: '2025-11-14T09:12:00+05:00', Etat: 1 }),
      importRecord({ DateHeure: '2025-11-14T09:12:00.1234567Z', NumLigne: null, Log: null }),
    ];
    const res = await post(a.token, sent);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ inserted: 4, duplicates: 0 });

    const rows = await records(a.id);
    expect(rows[0]).toMatchObject({
      id_interne: 'NUXIDEVA61267c591917f0e1',
      type_enreg: 'DocumentDEVIS',
      type_element: 'Création',
      date_heure: new Date('2025-11-14T08:12:00Z'), // Paris in winter, +01:00
      num_ligne: 3,
      etat: 0,
      log: 'Import OK\r\nLigne 2 : Ã©tÃ©',
      enreg: sent[0]?.Enreg,
      has_file: true,
      received_at: clock,
    });
    expect(rows[1]).toMatchObject({ date_heure: new Date('2025-07-01T07:12:00Z'), etat: -1, num_ligne: 7 }); // summer
    expect(rows[2]).toMatchObject({ date_heure: new Date('2025-11-14T04:12:00Z'), etat: 1 });
    expect(rows[3]).toMatchObject({
      date_heure: new Date('2025-11-14T09:12:00.123Z'),
      num_ligne: 0,
      log: '',
      has_file: false,
    });
    const files = await ctx.db.query<{ name: string; size: number; content: Uint8Array }>(
      `SELECT f.name, f.size, f.content FROM import_record_files f JOIN import_records r ON r.id = f.record_id
       WHERE r.installation_id = $1`,
      [a.id],
    );
    expect(files).toHaveLength(1);
    expect(files[0]?.name).toBe('DEVIS-été.pdf');
    expect(files[0]?.size).toBe(pdf.length);
    expect(Buffer.from(files[0]?.content ?? []).equals(pdf)).toBe(true);
  });

  it('times without offset are read in Planifications/FuseauHoraire, else the installation’s zone', async () => {
    const ny = await connectorInstallation(ctx.db, 'RECZONE1', {
      configText: FIXTURE_CONFIG.replace('<FuseauHoraire>Europe/Paris<', '<FuseauHoraire>America/New_York<'),
    });
    await post(ny.token, [importRecord({ DateHeure: '2025-11-14T09:12:00' })]);
    expect((await records(ny.id))[0]?.date_heure).toEqual(new Date('2025-11-14T14:12:00Z'));

    const unknown = await connectorInstallation(ctx.db, 'RECZONE2', {
      configText: FIXTURE_CONFIG.replace('<FuseauHoraire>Europe/Paris<', '<FuseauHoraire>Mars/Olympus<'),
    });
    await ctx.db.query(`UPDATE installations SET time_zone = 'Asia/Tokyo' WHERE id = $1`, [unknown.id]);
    await postTx(unknown.token, [transaction({ DateHeureTrt: '2025-11-14T09:12:00' })]);
    const [tx] = await ctx.db.query<{ date_heure_trt: Date }>(
      'SELECT date_heure_trt FROM transaction_logs WHERE installation_id = $1',
      [unknown.id],
    );
    expect(tx?.date_heure_trt).toEqual(new Date('2025-11-14T00:12:00Z'));

    // No FuseauHoraire and no zone of the installation's own: Europe/Paris (the contract's default).
    const none = await connectorInstallation(ctx.db, 'RECZONE3', {
      configText: FIXTURE_CONFIG.replace(/<FuseauHoraire>[^<]*<\/FuseauHoraire>/, ''),
    });
    await ctx.db.query(`UPDATE installations SET time_zone = '' WHERE id = $1`, [none.id]);
    await post(none.token, [importRecord({ DateHeure: '2025-07-14T09:12:00' })]);
    expect((await records(none.id))[0]?.date_heure).toEqual(new Date('2025-07-14T07:12:00Z'));
  });

  it('idempotent on IDInterne: the same batch twice changes nothing; a duplicate inside a batch keeps the first', async () => {
    const a = await connectorInstallation(ctx.db, 'RECIDEM1');
    const batch = [importRecord(), importRecord(), importRecord()];
    expect((await post(a.token, batch)).json()).toEqual({ inserted: 3, duplicates: 0 });
    const before = await records(a.id);
    // The retried batch, even with other values, leaves the stored records as they are.
    const retried = batch.map((r) => ({ ...r, Etat: 1, Log: 'autre', RefDoc: 'AUTRE' }));
    expect((await post(a.token, retried)).json()).toEqual({ inserted: 0, duplicates: 3 });
    expect(await records(a.id)).toEqual(before);

    const twin = importRecord({ RefDoc: 'PREMIER' });
    const batch2 = [twin, importRecord(), { ...twin, RefDoc: 'SECOND' }, batch[0]];
    expect((await post(a.token, batch2)).json()).toEqual({ inserted: 2, duplicates: 2 });
    const rows = await records(a.id);
    expect(rows).toHaveLength(5);
    expect(rows.find((r) => r.id_interne === twin.IDInterne)?.ref_doc).toBe('PREMIER');
    expect((await post(a.token, [])).json()).toEqual({ inserted: 0, duplicates: 0 });
  });

  it('a big body (read in a worker a slice at a time): a broken last item, the body’s own 400, nothing stored', async () => {
    const a = await connectorInstallation(ctx.db, 'RECBIG1');
    const big = (n: number) => importRecord({ Enreg: `<a>${'x'.repeat(1500)}${n}</a>` });
    const items = Array.from({ length: 499 }, (_, n) => JSON.stringify(big(n)));
    const send = (payload: string | Buffer) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/connector/v1/import-records',
        headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
        payload,
      });
    const notJson = `{"records":[${items.join(',')},{"IDInterne":"X",}]}`;
    expect(notJson.length).toBeGreaterThan(OFFLOAD_MIN_BYTES);
    expect(expectConnectorError(await send(notJson), 400, 'invalid-request')).toBe(INVALID_JSON_MESSAGE);
    const notUtf8 = Buffer.from(`{"records":[${items.join(',')},"\u0000"]}`);
    notUtf8[notUtf8.lastIndexOf(0)] = 0xff;
    expect(expectConnectorError(await send(notUtf8), 400, 'invalid-request')).toBe(INVALID_UTF8_MESSAGE);
    expect(await countOf('import_records', a.id)).toBe(0);
    const whole = `{"records":[${items.join(',')}]}`;
    expect((await send(whole)).json()).toEqual({ inserted: 499, duplicates: 0 });
    expect(await countOf('import_records', a.id)).toBe(499);
  });

  it('a big body: every XML stored and given back byte for byte (PostgreSQL: sent as the worker’s UTF-8)', async () => {
    const a = await connectorInstallation(ctx.db, 'RECBIG2');
    // One-byte and two-byte texts, a pair of surrogates, a byte order mark first, an empty
    // element, the connector's own convention: each one exactly as sent.
    const texts = [
      (n: number) => `<a>${'x'.repeat(1500)}${n}</a>`,
      (n: number) => `\uFEFF<a>Ã©tÃ© ${'é'.repeat(700)} ${n}</a>`,
      (n: number) => `<a>Main dâ€™Å“uvre 😀 ${'€'.repeat(600)} ${n}</a>`,
      (n: number) => `<a b="${n}"/>`,
    ];
    const sent = Array.from({ length: 400 }, (_, n) =>
      importRecord({ Enreg: (texts[n % texts.length] as (n: number) => string)(n) }),
    );
    expect(Buffer.byteLength(JSON.stringify({ records: sent }))).toBeGreaterThan(OFFLOAD_MIN_BYTES);
    expect((await post(a.token, sent)).json()).toEqual({ inserted: 400, duplicates: 0 });
    const stored = await records(a.id);
    expect(stored.map((r) => r.enreg)).toEqual(sent.map((r) => r.Enreg));
    // The queue (all of them Etat 0, at the same time: in their order of arrival) gives them back.
    const queue = await connectorCall(ctx.app, 'GET', '/import-records/queue', a.token);
    const given = ZImportQueueAnswer.parse(queue.json()).records;
    expect(given).toHaveLength(100);
    expect(given.map((r) => r.Enreg)).toEqual(sent.slice(0, 100).map((r) => r.Enreg));
  });

  it('all or nothing: a bad 500th record, nothing stored; every fault named with its index', async () => {
    const a = await connectorInstallation(ctx.db, 'RECALL1');
    const batch = Array.from({ length: 500 }, () => importRecord());
    const badTime = [...batch.slice(0, 499), importRecord({ DateHeure: '14/11/2025 09:12' })];
    expect(expectConnectorError(await post(a.token, badTime), 400, 'invalid-request')).toBe(
      'Requête invalide\u00a0: records[499].DateHeure\u00a0: date et heure ISO 8601 attendues (2025-11-14T09:12:00, ou avec décalage 2025-11-14T09:12:00+01:00)',
    );
    const badXml = [...batch.slice(0, 499), importRecord({ Enreg: '<SyncNuxiDev><Libelle>x</SyncNuxiDev>' })];
    expect(expectConnectorError(await post(a.token, badXml), 400, 'invalid-request')).toMatch(
      /^Requête invalide\u00a0: records\[499\]\.Enreg\u00a0: .+/,
    );
    const entity = [
      ...batch.slice(0, 499),
      importRecord({ Enreg: '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>' }),
    ];
    expectConnectorError(await post(a.token, entity), 400, 'invalid-request');
    expect(await countOf('import_records', a.id)).toBe(0);

    const many = [
      importRecord({ Etat: 2 }),
      importRecord({ IDInterne: '' }),
      importRecord({ NumLigne: 'trois' }),
      importRecord({ Enreg: '' }),
      importRecord({ Fichier: { Nom: 'a.pdf', Contenu: 'pas du base64 !' } }),
      importRecord({ TypeEnreg: 'x'.repeat(256) }),
      importRecord({ Log: 'nul \u0000' }),
    ];
    expect(expectConnectorError(await post(a.token, many), 400, 'invalid-request')).toBe(
      'Requête invalide\u00a0: records[0].Etat\u00a0: Etat doit valoir 0 (à importer), 1 (importé) ou -1 (erreur)\u202f; ' +
        'records[1].IDInterne\u00a0: ne doit pas être vide\u202f; ' +
        'records[2].NumLigne\u00a0: nombre entier attendu, entre -2\u202f147\u202f483\u202f648 et 2\u202f147\u202f483\u202f647\u202f; ' +
        'records[3].Enreg\u00a0: ne doit pas être vide\u202f; ' +
        'records[4].Fichier.Contenu\u00a0: contenu en base64 invalide\u202f; et 2 autres erreurs',
    );
    const tooMany = Array.from({ length: 501 }, () => importRecord());
    expect(expectConnectorError(await post(a.token, tooMany), 400, 'invalid-request')).toBe(
      'Requête invalide\u00a0: records\u00a0: au plus 500 enregistrements par requête',
    );
    expectConnectorError(
      await connectorCall(ctx.app, 'POST', '/import-records', a.token, {}),
      400,
      'invalid-request',
    );
    expect(await countOf('import_records', a.id)).toBe(0);
    // The same 500 are then stored at once.
    expect((await post(a.token, batch)).json()).toEqual({ inserted: 500, duplicates: 0 });
  });
});

describe('GET /import-records/queue', () => {
  it('Etat 0 only, oldest first, up to limit; each record as the connector sent it', async () => {
    const a = await connectorInstallation(ctx.db, 'QUEUE1');
    const late = importRecord({ DateHeure: '2025-11-14T12:00:00' });
    const early = importRecord({
      DateHeure: '2025-11-14T08:00:00',
      TypeElement: 'Création', // sent in clear, not in the convention: given back as sent
      RefDoc: 'RÃ©f 12',
      Enreg: '\uFEFF<SyncNuxiDev><Libelle>Ã©tÃ©</Libelle></SyncNuxiDev>',
    });
    const sameTimeFirst = importRecord({ DateHeure: '2025-11-14T10:00:00' });
    const sameTimeSecond = importRecord({ DateHeure: '2025-11-14T10:00:00' });
    const done = importRecord({ DateHeure: '2025-11-14T07:00:00', Etat: 1 });
    const failed = importRecord({ DateHeure: '2025-11-14T07:00:00', Etat: -1 });
    await post(a.token, [late, early, sameTimeFirst, done, failed]);
    await post(a.token, [sameTimeSecond]);

    const res = await connectorCall(ctx.app, 'GET', '/import-records/queue', a.token);
    expect(res.statusCode, res.body).toBe(200);
    const queue = ZImportQueueAnswer.parse(res.json()).records;
    expect(queue.map((r) => r.IDInterne)).toEqual(
      [early, sameTimeFirst, sameTimeSecond, late].map((r) => r.IDInterne),
    );
    expect(queue[0]).toEqual({
      IDInterne: early.IDInterne,
      TypeEnreg: 'DocumentDEVIS',
      RefDoc: 'RÃ©f 12',
      DateHeure: '2025-11-14T08:00:00.000+01:00',
      NumLigne: 3,
      TypeElement: 'Création',
      Enreg: early.Enreg,
    });
    expect(queue[1]?.TypeElement).toBe('CrÃ©ation');

    const two = await connectorCall(ctx.app, 'GET', '/import-records/queue?limit=2', a.token);
    expect(two.json().records.map((r: { IDInterne: string }) => r.IDInterne)).toEqual([
      early.IDInterne,
      sameTimeFirst.IDInterne,
    ]);
    for (const limit of ['0', '501', 'dix']) {
      const bad = await connectorCall(ctx.app, 'GET', `/import-records/queue?limit=${limit}`, a.token);
      expect(expectConnectorError(bad, 400, 'invalid-request')).toBe(
        'Requête invalide\u00a0: limit\u00a0: nombre entier attendu, entre 1 et 500',
      );
    }

    // A record set back to 0 in the console comes back; 1 or -1 takes it out.
    await ctx.db.query(`UPDATE import_records SET etat = 0 WHERE id_interne = $1`, [done.IDInterne]);
    await ctx.db.query(`UPDATE import_records SET etat = 1 WHERE id_interne = $1`, [late.IDInterne]);
    const after = (await connectorCall(ctx.app, 'GET', '/import-records/queue', a.token)).json();
    expect(after.records.map((r: { IDInterne: string }) => r.IDInterne)).toEqual(
      [done, early, sameTimeFirst, sameTimeSecond].map((r) => r.IDInterne),
    );
  });

  it('default limit 100, and an answer holds at most so many bytes of Enreg (at least one record)', async () => {
    const a = await connectorInstallation(ctx.db, 'QUEUE2');
    await post(
      a.token,
      Array.from({ length: 120 }, (_, i) =>
        importRecord({ DateHeure: `2025-11-14T08:${String(i % 60).padStart(2, '0')}:00` }),
      ),
    );
    expect(
      (await connectorCall(ctx.app, 'GET', '/import-records/queue', a.token)).json().records,
    ).toHaveLength(100);

    const b = await connectorInstallation(ctx.db, 'QUEUE3');
    const big = (n: number) => `<SyncNuxiDev><Photo>${'A'.repeat(n)}</Photo></SyncNuxiDev>`;
    await post(b.token, [
      importRecord({ DateHeure: '2025-11-14T08:00:00', Enreg: big(6000) }),
      importRecord({ DateHeure: '2025-11-14T08:01:00', Enreg: big(3000) }),
      importRecord({ DateHeure: '2025-11-14T08:02:00', Enreg: big(3000) }),
    ]);
    const sizes = async (max: number) =>
      (await readQueue(ctx.db, b.id, 100, 'Europe/Paris', max)).map((r) => r.Enreg.length - 42);
    expect(await sizes(1000)).toEqual([6000]);
    expect(await sizes(9100)).toEqual([6000, 3000]);
    expect(await sizes(9084)).toEqual([6000, 3000]);
    expect(await sizes(9083)).toEqual([6000]);
    expect(await sizes(20_000)).toEqual([6000, 3000, 3000]);
  });
});

describe('POST /import-records/{IDInterne}/result', () => {
  it('sets Etat, the log and the produced file; the record leaves the queue; twice is once', async () => {
    const a = await connectorInstallation(ctx.db, 'RES1');
    const rec = importRecord({ IDInterne: 'NUXI/DEV é 1', Log: 'à importer' });
    const other = importRecord({ Log: 'garde son log' });
    await post(a.token, [rec, other]);
    const url = `/import-records/${encodeURIComponent(rec.IDInterne as string)}/result`;
    const pdf = Buffer.from('%PDF-1.4 DEVIS-0042');
    const body = {
      Etat: 1,
      Log: 'Importé\r\nDevis DEVIS-0042 créé',
      Fichier: { Nom: 'DEVIS-0042.pdf', Contenu: pdf.toString('base64') },
    };
    for (let i = 0; i < 2; i++) {
      const res = await connectorCall(ctx.app, 'POST', url, a.token, body);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ IDInterne: rec.IDInterne, Etat: 1 });
    }
    const rows = await records(a.id);
    expect(rows[0]).toMatchObject({ etat: 1, log: body.Log, has_file: true });
    const files = await ctx.db.query<{ name: string; size: number }>(
      'SELECT name, size FROM import_record_files',
    );
    expect(files.filter((f) => f.name === 'DEVIS-0042.pdf')).toEqual([
      { name: 'DEVIS-0042.pdf', size: pdf.length },
    ]);

    // -1 without a log keeps the stored log; the record is out of the queue either way.
    const failed = await connectorCall(
      ctx.app,
      'POST',
      `/import-records/${other.IDInterne as string}/result`,
      a.token,
      { Etat: '-1' },
    );
    expect(failed.json()).toEqual({ IDInterne: other.IDInterne, Etat: -1 });
    expect((await records(a.id))[1]).toMatchObject({ etat: -1, log: 'garde son log', has_file: false });
    expect((await connectorCall(ctx.app, 'GET', '/import-records/queue', a.token)).json()).toEqual({
      records: [],
    });
  });

  it('404 for an id this installation does not have (another installation’s included); 400 for a bad body; nothing changed', async () => {
    const a = await connectorInstallation(ctx.db, 'RES2');
    const b = await connectorInstallation(ctx.db, 'RES3');
    const rec = importRecord();
    await post(b.token, [rec]);
    const mine = await connectorCall(
      ctx.app,
      'POST',
      `/import-records/${rec.IDInterne as string}/result`,
      a.token,
      { Etat: 1 },
    );
    expect(expectConnectorError(mine, 404, 'not-found')).toBe(
      `Aucun enregistrement d’import « ${rec.IDInterne as string} » pour cette installation.`,
    );
    const unknown = await connectorCall(ctx.app, 'POST', '/import-records/INCONNU/result', b.token, {
      Etat: 1,
    });
    expectConnectorError(unknown, 404, 'not-found');
    for (const [body, message] of [
      [{ Etat: 0 }, 'Requête invalide\u00a0: Etat\u00a0: Etat doit valoir 1 (importé) ou -1 (erreur)'],
      [{}, 'Requête invalide\u00a0: Etat\u00a0: champ obligatoire'],
      [
        { Etat: 1, Fichier: { Nom: '', Contenu: 'QUJD' } },
        'Requête invalide\u00a0: Fichier.Nom\u00a0: ne doit pas être vide',
      ],
    ] as const) {
      const res = await connectorCall(
        ctx.app,
        'POST',
        `/import-records/${rec.IDInterne as string}/result`,
        b.token,
        body,
      );
      expect(expectConnectorError(res, 400, 'invalid-request')).toBe(message);
    }
    expect((await records(b.id))[0]).toMatchObject({ etat: 0 });
  });

  it('404 like an unknown id for an id no record can have: blank, over 100 characters, a control character', async () => {
    const a = await connectorInstallation(ctx.db, 'RES4');
    const rec = importRecord();
    await post(a.token, [rec]);
    for (const id of [
      '  ',
      'x'.repeat(101),
      'é'.repeat(2048),
      'NUXI\u0000',
      `${rec.IDInterne as string}\u0007`,
    ]) {
      const res = await connectorCall(
        ctx.app,
        'POST',
        `/import-records/${encodeURIComponent(id)}/result`,
        a.token,
        { Etat: 1 },
      );
      expect(expectConnectorError(res, 404, 'not-found'), id.slice(0, 20)).toBe(
        `Aucun enregistrement d’import « ${id} » pour cette installation.`,
      );
    }
    // An empty id, or one over the router's limit (2 048 characters as sent), does not reach the
    // route: the API's 404 all the same.
    for (const path of [
      '/import-records//result',
      `/import-records/${encodeURIComponent('é'.repeat(2048))}/result`,
    ]) {
      const res = await connectorCall(ctx.app, 'POST', path, a.token, { Etat: 1 });
      expectConnectorError(res, 404, 'not-found');
    }
    expect((await records(a.id))[0]).toMatchObject({ etat: 0 });
  });
});

describe('POST /transactions', () => {
  it('stores a batch: ID and Log as sent, short texts decoded, times in UTC; idempotent on ID', async () => {
    const a = await connectorInstallation(ctx.db, 'TX1');
    const batch = [
      transaction({ ID: 'T-000812', Err: 0, DateHeureTrt: '2025-11-14T09:12:03', NumTransaction: 812 }),
      transaction({ Err: '1', Log: 'Erreur\r\nDÃ©tail' }),
      transaction({ Err: true, Log: null }),
    ];
    expect((await postTx(a.token, batch)).json()).toEqual({ inserted: 3, duplicates: 0 });
    const rows = await ctx.db.query<Record<string, unknown>>(
      `SELECT tx_id, err, date_heure_trt, num_transaction, type_doc, ref_doc, id_tablette, libelle_tablette, log, received_at
       FROM transaction_logs WHERE installation_id = $1 ORDER BY id`,
      [a.id],
    );
    expect(rows[0]).toEqual({
      tx_id: 'T-000812',
      err: 0,
      date_heure_trt: new Date('2025-11-14T08:12:03Z'),
      num_transaction: '812',
      type_doc: 'DEVIS',
      ref_doc: batch[0]?.RefDoc,
      id_tablette: '815bf75ff86d94fa',
      libelle_tablette: 'Tablette de Léa',
      log: 'Ligne 1\r\nLigne 2',
      received_at: clock,
    });
    expect(rows[1]).toMatchObject({ err: 1, log: 'Erreur\r\nDÃ©tail' });
    expect(rows[2]).toMatchObject({ err: 1, log: '' });

    expect((await postTx(a.token, batch)).json()).toEqual({ inserted: 0, duplicates: 3 });
    const twin = transaction();
    expect((await postTx(a.token, [twin, { ...twin, Err: 1 }, transaction()])).json()).toEqual({
      inserted: 2,
      duplicates: 1,
    });
    expect(await countOf('transaction_logs', a.id)).toBe(5);
  });

  it('all or nothing: a bad 1000th transaction, nothing stored; more than 1 000 refused', async () => {
    const a = await connectorInstallation(ctx.db, 'TX2');
    const batch = Array.from({ length: 1000 }, () => transaction());
    const bad = [...batch.slice(0, 999), transaction({ Err: 2 })];
    expect(expectConnectorError(await postTx(a.token, bad), 400, 'invalid-request')).toBe(
      'Requête invalide\u00a0: transactions[999].Err\u00a0: Err doit valoir 0 (succès) ou 1 (erreur)',
    );
    const badTime = [...batch.slice(0, 999), transaction({ DateHeureTrt: '2025-02-30T10:00:00' })];
    expect(expectConnectorError(await postTx(a.token, badTime), 400, 'invalid-request')).toMatch(
      /^Requête invalide\u00a0: transactions\[999\]\.DateHeureTrt\u00a0: date et heure ISO 8601 attendues/,
    );
    expect(
      expectConnectorError(await postTx(a.token, [...batch, transaction()]), 400, 'invalid-request'),
    ).toBe('Requête invalide\u00a0: transactions\u00a0: au plus 1\u202f000 transactions par requête');
    expect(await countOf('transaction_logs', a.id)).toBe(0);
    expect((await postTx(a.token, batch)).json()).toEqual({ inserted: 1000, duplicates: 0 });
  });
});
