import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { ZDashboardView, ZSyncHistoryXml, ZTransactionLogDetail } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/types.ts';
import { sweepDetachedBlobs, type ApartPolicy } from '../src/domain/blobs.ts';
import { readRecordFile, readRecordValue } from '../src/domain/record-values.ts';
import { readQueue } from '../src/features/connector/import-records.ts';
import { ByteBudget } from '../src/offload/byte-budget.ts';
import { OFFLOAD_MIN_BYTES } from '../src/offload/pool.ts';
import { signIn, testApp } from './helpers/app.ts';
import {
  CONNECTOR,
  connectorCall,
  connectorInstallation,
  expectConnectorError,
  importRecord,
  transaction,
} from './helpers/connector.ts';
import { openTestDb } from './helpers/db.ts';

/**
 * Sharing the server fairly (docs/server.md « Partage équitable »), through the real routes on
 * both databases: big bodies read in a worker thread, big values written apart, the memory budget
 * of bodies (503), the storage quota (507).
 */

let db: Db;
/** Writes apart every value over 20 000 characters, or once a batch carries 60 000 inline. */
const APART: ApartPolicy = { enabled: true, transactionChars: 60_000, valueChars: 20_000 };
let apartApp: FastifyInstance;
let inlineApp: FastifyInstance;

beforeAll(async () => {
  db = await openTestDb();
  apartApp = await testApp(db, { apart: APART, logLevel: 'warn' });
  inlineApp = await testApp(db, { apart: { ...APART, enabled: false }, logLevel: 'warn' });
});
afterAll(async () => {
  await apartApp.close();
  await inlineApp.close();
  await db.close();
});

const count = async (sql: string, params: unknown[]) =>
  (await db.query<{ n: number }>(sql, params))[0]?.n ?? -1;

const blobsOf = (installationId: string, attached: boolean) =>
  count('SELECT count(*)::int AS n FROM stored_blobs WHERE installation_id = $1 AND attached = $2', [
    installationId,
    attached,
  ]);

/** The bytes the installation keeps, counted from the tables themselves. */
const bytesInTables = (installationId: string) =>
  count(
    `SELECT (coalesce((SELECT sum(coalesce(octet_length(enreg), 0) + octet_length(log)) FROM import_records WHERE installation_id = $1), 0)
      + coalesce((SELECT sum(octet_length(log)) FROM transaction_logs WHERE installation_id = $1), 0)
      + coalesce((SELECT sum(coalesce(octet_length(content), 0)) FROM import_record_files WHERE installation_id = $1), 0)
      + coalesce((SELECT sum(octet_length(data)) FROM stored_blob_chunks WHERE installation_id = $1), 0))::int AS n`,
    [installationId],
  );
const storedBytes = (installationId: string) =>
  count('SELECT coalesce(max(bytes), 0)::int AS n FROM installation_storage WHERE installation_id = $1', [
    installationId,
  ]);

/** A record of about `kb` KB of XML, accents in the connector's convention, a log and a file. */
function bigRecord(id: string, kb: number) {
  const fields = Array.from({ length: Math.ceil((kb * 1024) / 48) }, (_, k) => `<C${k}>Ã©tÃ© ${k}</C${k}>`);
  return importRecord({
    IDInterne: id,
    Enreg: `\uFEFF<SyncNuxiDev><Enregistrement>${fields.join('')}</Enregistrement></SyncNuxiDev>`,
    Log: `Import de ${id}\r\n${'ligne du journal Ã©\r\n'.repeat(2000)}`,
    Fichier: { Nom: `${id}.pdf`, Contenu: Buffer.alloc(30_000, id).toString('base64') },
  });
}

function batchOf(prefix: string, n: number, kb: number) {
  return { records: Array.from({ length: n }, (_, k) => bigRecord(`${prefix}-${k}`, kb)) };
}

describe('a big batch: read in a worker thread, big values written apart', () => {
  it('stores every record, log and file as sent, counts the duplicates, leaves nothing detached', async () => {
    const a = await connectorInstallation(db, 'FAIRA001');
    const batch = batchOf('BIG', 12, 60);
    expect(JSON.stringify(batch).length).toBeGreaterThan(OFFLOAD_MIN_BYTES);
    const res = await connectorCall(apartApp, 'POST', '/import-records', a.token, batch);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ inserted: 12, duplicates: 0 });
    // Each record's XML, log and file went apart (over 20 000 characters each).
    expect(await blobsOf(a.id, true)).toBe(36);
    expect(await blobsOf(a.id, false)).toBe(0);
    for (const sent of batch.records) {
      const id = sent.IDInterne as string;
      expect((await readRecordValue(db, a.id, id, 'enreg')) === sent.Enreg).toBe(true);
      expect((await readRecordValue(db, a.id, id, 'log')) === sent.Log).toBe(true);
      const file = await readRecordFile(db, a.id, id);
      expect(file?.content.equals(Buffer.alloc(30_000, id))).toBe(true);
    }
    const queue = await readQueue(db, a.id, 100, 'Europe/Paris');
    expect(
      queue.map((r) => r.Enreg === batch.records.find((s) => s.IDInterne === r.IDInterne)?.Enreg),
    ).toEqual(Array(12).fill(true));
    expect(await storedBytes(a.id)).toBe(await bytesInTables(a.id));

    // The same batch again: all duplicates, and what it wrote apart is deleted.
    const again = await connectorCall(apartApp, 'POST', '/import-records', a.token, batch);
    expect(again.json()).toEqual({ inserted: 0, duplicates: 12 });
    expect(await blobsOf(a.id, true)).toBe(36);
    expect(await blobsOf(a.id, false)).toBe(0);
    expect(await storedBytes(a.id)).toBe(await bytesInTables(a.id));
  });

  it('keeps a big batch in one transaction where nothing goes apart (PostgreSQL)', async () => {
    const a = await connectorInstallation(db, 'FAIRA002');
    const batch = batchOf('INL', 12, 60);
    const res = await connectorCall(inlineApp, 'POST', '/import-records', a.token, batch);
    expect(res.json()).toEqual({ inserted: 12, duplicates: 0 });
    expect(await blobsOf(a.id, true)).toBe(0);
    const first = batch.records[0] as Record<string, unknown>;
    expect((await readRecordValue(db, a.id, first.IDInterne as string, 'enreg')) === first.Enreg).toBe(true);
    expect(await storedBytes(a.id)).toBe(await bytesInTables(a.id));
  });

  it('where nothing goes apart, rows are written as the worker checks them: duplicates, faults, a body refused whole', async () => {
    const a = await connectorInstallation(db, 'FAIRS001');
    // 40 records: the worker posts them by slices, the first statements leave before the last is checked.
    const batch = batchOf('STR', 40, 20);
    batch.records.push({ ...batch.records[3], Etat: 1 } as (typeof batch.records)[number]);
    expect(JSON.stringify(batch).length).toBeGreaterThan(OFFLOAD_MIN_BYTES);
    const res = await connectorCall(inlineApp, 'POST', '/import-records', a.token, batch);
    expect(res.json()).toEqual({ inserted: 40, duplicates: 1 });
    const [row] = await db.query<{ etat: number }>(
      'SELECT etat FROM import_records WHERE installation_id = $1 AND id_interne = $2',
      [a.id, 'STR-3'],
    );
    expect(row?.etat).toBe(0);
    expect(await storedBytes(a.id)).toBe(await bytesInTables(a.id));
    const again = await connectorCall(inlineApp, 'POST', '/import-records', a.token, batch);
    expect(again.json()).toEqual({ inserted: 0, duplicates: 41 });

    // Faults after rows were written: the 400 names each one, and nothing of the batch is stored.
    const b = await connectorInstallation(db, 'FAIRS002');
    const faulty = batchOf('STF', 40, 20);
    (faulty.records[2] as Record<string, unknown>).Etat = 7;
    (faulty.records[39] as Record<string, unknown>).DateHeure = 'hier';
    const refused = await connectorCall(inlineApp, 'POST', '/import-records', b.token, faulty);
    const message = expectConnectorError(refused, 400, 'invalid-request');
    expect(message).toContain('records[2].Etat');
    expect(message).toContain('records[39].DateHeure');
    expect(
      await count('SELECT count(*)::int AS n FROM import_records WHERE installation_id = $1', [b.id]),
    ).toBe(0);
    expect(await storedBytes(b.id)).toBe(0);

    // A big body that is not the envelope: refused whole, nothing written.
    const wrong = await connectorCall(inlineApp, 'POST', '/import-records', b.token, {
      enregistrements: faulty.records,
    });
    expectConnectorError(wrong, 400, 'invalid-request');
    const notJson = await connectorCall(
      inlineApp,
      'POST',
      '/import-records',
      b.token,
      `{"records":[${'1,'.repeat(OFFLOAD_MIN_BYTES)}`,
      {
        'content-type': 'application/json',
      },
    );
    expect(notJson.statusCode).toBe(400);
    expect(
      await count('SELECT count(*)::int AS n FROM import_records WHERE installation_id = $1', [b.id]),
    ).toBe(0);
  });

  it('where nothing goes apart, a big batch of transactions is written as it is checked', async () => {
    const a = await connectorInstallation(db, 'FAIRS003');
    const batch = {
      transactions: Array.from({ length: 1000 }, (_, k) =>
        transaction({ ID: `STX-${k}`, Err: k % 10 === 0 ? 1 : 0, Log: `Journal ${k} ${'z'.repeat(600)}` }),
      ),
    };
    expect(JSON.stringify(batch).length).toBeGreaterThan(OFFLOAD_MIN_BYTES);
    const res = await connectorCall(inlineApp, 'POST', '/transactions', a.token, batch);
    expect(res.json()).toEqual({ inserted: 1000, duplicates: 0 });
    expect(
      await count('SELECT count(*)::int AS n FROM transaction_logs WHERE installation_id = $1 AND err = 1', [
        a.id,
      ]),
    ).toBe(100);
    expect(await storedBytes(a.id)).toBe(await bytesInTables(a.id));
    const again = await connectorCall(inlineApp, 'POST', '/transactions', a.token, batch);
    expect(again.json()).toEqual({ inserted: 0, duplicates: 1000 });
  });

  it('a fault in the last record: the 400 naming it, nothing stored, nothing left apart', async () => {
    const a = await connectorInstallation(db, 'FAIRA003');
    const batch = batchOf('BAD', 12, 60);
    (batch.records[11] as Record<string, unknown>).DateHeure = 'hier';
    const res = await connectorCall(apartApp, 'POST', '/import-records', a.token, batch);
    expect(expectConnectorError(res, 400, 'invalid-request')).toContain('records[11].DateHeure');
    expect(
      await count('SELECT count(*)::int AS n FROM import_records WHERE installation_id = $1', [a.id]),
    ).toBe(0);
    expect(
      await count('SELECT count(*)::int AS n FROM stored_blobs WHERE installation_id = $1', [a.id]),
    ).toBe(0);
    expect(await storedBytes(a.id)).toBe(0);
  });

  it('transactions: long logs apart, the list shows their beginning, the detail and the CSV the log', async () => {
    const a = await connectorInstallation(db, 'FAIRA004');
    const long = `DÃ©but du journal Ã©tÃ©\r\n${'x'.repeat(45_000)}\r\nFin`;
    const batch = {
      transactions: Array.from({ length: 30 }, (_, k) =>
        transaction({ ID: `TX-${k}`, Log: k === 0 ? long : `Court ${k} ${'y'.repeat(20_000)}` }),
      ),
    };
    const res = await connectorCall(apartApp, 'POST', '/transactions', a.token, batch);
    expect(res.json()).toEqual({ inserted: 30, duplicates: 0 });
    expect(await blobsOf(a.id, true)).toBeGreaterThan(0);
    const cookie = await signIn(apartApp, 'FAIRA004');
    const detail = await apartApp.inject({ url: '/api/transaction-logs/TX-0', headers: { cookie } });
    expect(ZTransactionLogDetail.parse(detail.json()).Log).toBe(long.replaceAll('Ã©', 'é'));
    const list = await apartApp.inject({ url: '/api/transaction-logs?pageSize=50', headers: { cookie } });
    const row = (list.json() as { logs: { ID: string; Log: string; logTruncated: boolean }[] }).logs.find(
      (r) => r.ID === 'TX-0',
    );
    expect(row?.Log.startsWith('Début du journal été')).toBe(true);
    expect(row?.logTruncated).toBe(true);
    const csv = await apartApp.inject({ url: '/api/exports/transaction-logs.csv', headers: { cookie } });
    expect(csv.body).toContain(`Début du journal été\r\n${'x'.repeat(100)}`);
    expect(csv.body).toContain('… (log tronqué)"');
    expect(await storedBytes(a.id)).toBe(await bytesInTables(a.id));
  });

  it('the console shows and saves a record whose XML is apart; the old value is deleted', async () => {
    const a = await connectorInstallation(db, 'FAIRA005');
    const batch = batchOf('XML', 12, 60);
    await connectorCall(apartApp, 'POST', '/import-records', a.token, batch);
    const cookie = await signIn(apartApp, 'FAIRA005');
    const url = `/api/sync-history/${encodeURIComponent('XML-3')}`;
    const view = ZSyncHistoryXml.parse(
      (await apartApp.inject({ url: `${url}/xml`, headers: { cookie } })).json(),
    );
    expect(view.enreg.startsWith('\uFEFF<SyncNuxiDev>')).toBe(true);
    expect(view.enreg).toContain('<C0>été 0</C0>');
    const log = await apartApp.inject({ url: `${url}/log`, headers: { cookie, accept: 'text/plain' } });
    expect(log.body.length).toBeGreaterThan(30_000);
    const file = await apartApp.inject({ url: `${url}/file`, headers: { cookie } });
    expect(file.rawPayload.equals(Buffer.alloc(30_000, 'XML-3'))).toBe(true);

    // A 700 KB save: read in a worker thread, written apart; the replaced value is deleted.
    const before = await blobsOf(a.id, true);
    const edited = view.enreg.replace('<C0>été 0</C0>', `<C0>${'é'.repeat(350_000)}</C0>`);
    const saved = await apartApp.inject({
      method: 'PUT',
      url: `${url}/xml`,
      headers: { cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ xml: edited }),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await blobsOf(a.id, true)).toBe(before);
    const shown = ZSyncHistoryXml.parse(
      (await apartApp.inject({ url: `${url}/xml`, headers: { cookie } })).json(),
    );
    expect(shown.enreg === edited).toBe(true);
    expect(await storedBytes(a.id)).toBe(await bytesInTables(a.id));
  });

  it('values never attached are swept after an hour, and leave the storage count', async () => {
    const a = await connectorInstallation(db, 'FAIRA006');
    const batch = batchOf('SWP', 12, 60);
    await connectorCall(apartApp, 'POST', '/import-records', a.token, batch);
    await db.query(
      `INSERT INTO stored_blobs (installation_id, bytes, attached, created_at) VALUES ($1, 3, false, now() - interval '2 hours')`,
      [a.id],
    );
    const [orphan] = await db.query<{ id: string }>(
      'SELECT id::text FROM stored_blobs WHERE installation_id = $1 AND NOT attached',
      [a.id],
    );
    await db.query(
      `INSERT INTO stored_blob_chunks (blob_id, seq, installation_id, data) VALUES ($1, 0, $2, 'abc')`,
      [orphan?.id, a.id],
    );
    await db.query(`INSERT INTO stored_blobs (installation_id, bytes, attached) VALUES ($1, 3, false)`, [
      a.id,
    ]);
    expect(await storedBytes(a.id)).toBe(await bytesInTables(a.id));
    expect(await sweepDetachedBlobs(db, new Date())).toBeGreaterThanOrEqual(1);
    // The young one (its batch may still be on its way) stays.
    expect(await blobsOf(a.id, false)).toBe(1);
    expect(await blobsOf(a.id, true)).toBe(36);
    expect(await storedBytes(a.id)).toBe(await bytesInTables(a.id));
  });
});

describe('storage quota', () => {
  it('507 in French past the quota, nothing written; Général gives the bytes and the quota', async () => {
    const a = await connectorInstallation(db, 'FAIRQ001');
    const small = await connectorCall(inlineApp, 'POST', '/import-records', a.token, {
      records: [importRecord({ IDInterne: 'Q-1' })],
    });
    expect(small.statusCode).toBe(200);
    const used = await storedBytes(a.id);
    expect(used).toBeGreaterThan(0);
    await db.query('UPDATE installations SET storage_quota_bytes = $2 WHERE id = $1', [a.id, used + 50_000]);
    const over = await connectorCall(inlineApp, 'POST', '/import-records', a.token, batchOf('Q', 2, 60));
    const message = expectConnectorError(over, 507, 'insufficient-storage');
    expect(message).toMatch(
      /^Espace de stockage de l’installation plein\u00a0: .* utilisés sur .* autorisés/,
    );
    expect(message).toContain('Rien n’a été enregistré.');
    expect(
      await count('SELECT count(*)::int AS n FROM import_records WHERE installation_id = $1', [a.id]),
    ).toBe(1);
    const tx = await connectorCall(inlineApp, 'POST', '/transactions', a.token, {
      transactions: [transaction({ Log: 'z'.repeat(60_000) })],
    });
    expectConnectorError(tx, 507, 'insufficient-storage');

    const cookie = await signIn(inlineApp, 'FAIRQ001');
    const dashboard = ZDashboardView.parse(
      (await inlineApp.inject({ url: '/api/dashboard', headers: { cookie } })).json(),
    );
    expect(dashboard.storage).toEqual({ usedBytes: used, quotaBytes: used + 50_000 });
  });

  it('an installation without a quota of its own has the server’s (STORAGE_QUOTA_MB)', async () => {
    const a = await connectorInstallation(db, 'FAIRQ002');
    const app = await testApp(db, { fairShare: { storageQuotaBytes: 1024 }, logLevel: 'warn' });
    try {
      const res = await connectorCall(app, 'POST', '/import-records', a.token, {
        records: [importRecord({ Log: 'l'.repeat(2000) })],
      });
      expectConnectorError(res, 507, 'insufficient-storage');
      const cookie = await signIn(app, 'FAIRQ002');
      const view = ZDashboardView.parse(
        (await app.inject({ url: '/api/dashboard', headers: { cookie } })).json(),
      );
      expect(view.storage).toEqual({ usedBytes: 0, quotaBytes: 1024 });
    } finally {
      await app.close();
    }
  });
});

/**
 * A request whose body is on its way: headers and part of the body sent, the rest when
 * `finish()` is called; resolves with the status line of the answer.
 */
function slowPost(port: number, token: string, body: string) {
  const socket = connect(port, '127.0.0.1');
  const head =
    `POST ${CONNECTOR}/import-records HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
  let answer = '';
  const answered = new Promise<string>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n\r\n')) resolve(answer.slice(0, answer.indexOf('\r\n')));
    });
    socket.on('close', () => resolve(answer.slice(0, answer.indexOf('\r\n'))));
  });
  const half = Math.floor(body.length / 2);
  socket.write(head + body.slice(0, half));
  return {
    /** Cuts the connection (a failed test must not leave the server waiting for the body). */
    cut: () => socket.destroy(),
    finish: () => {
      socket.write(body.slice(half));
      return answered.finally(() => socket.destroy());
    },
    answered,
  };
}

/** A POST through a keep-alive agent: status, Connection header, body, whether it reused a socket. */
function postOverSocket(port: number, agent: Agent, token: string, body: string) {
  return new Promise<{ status: number; connection?: string; body: string; reusedSocket: boolean }>(
    (resolve, reject) => {
      const req = httpRequest(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: `${CONNECTOR}/import-records`,
          agent,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              connection: res.headers.connection,
              body: text,
              reusedSocket: req.reusedSocket,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    },
  );
}

describe('memory budget of bodies', () => {
  it('503 with Retry-After past the installation’s share or the total; small bodies of others go on', async () => {
    const bodies = new ByteBudget({ perInstallation: 2_000_000, total: 2_500_000 });
    const app = await testApp(db, { bodies, logLevel: 'warn' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    let held: ReturnType<typeof slowPost> | null = null;
    try {
      const a = await connectorInstallation(db, 'FAIRM001');
      const b = await connectorInstallation(db, 'FAIRM002');
      const c = await connectorInstallation(db, 'FAIRM003');
      const heldBody = JSON.stringify(batchOf('HELD', 8, 150));
      held = slowPost(port, a.token, heldBody);
      // The server holds it once its token is checked, before reading its body.
      while (bodies.held(a.id) === 0) {
        const early = await Promise.race([held.answered, new Promise((r) => setTimeout(r, 10, null))]);
        expect(early, 'the held request was answered before its body was sent').toBeNull();
      }
      expect(bodies.held(a.id)).toBe(Buffer.byteLength(heldBody));
      const probe = await connectorCall(app, 'POST', '/import-records', a.token, batchOf('P', 4, 100));
      const message = expectConnectorError(probe, 503, 'server-busy');
      expect(message).toMatch(/^Le serveur traite déjà .* de données de cette installation\u00a0: renvoyez/);
      expect(message).toContain('Rien n’a été enregistré.');
      expect(Number(probe.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // C's big body would pass the total: refused; B's small one goes through.
      const cBig = await connectorCall(app, 'POST', '/import-records', c.token, batchOf('C', 8, 150));
      expect(expectConnectorError(cBig, 503, 'server-busy')).toMatch(/^Le serveur traite déjà beaucoup/);
      // Over the network: the refused body is read and discarded, the answer arrives whole and the
      // connection stays open for the next request (no broken pipe for a sender still writing).
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const bigBody = JSON.stringify(batchOf('CNET', 8, 150));
        const first = await postOverSocket(port, agent, c.token, bigBody);
        expect(first.status).toBe(503);
        expect(first.connection).not.toBe('close');
        expect(JSON.parse(first.body)).toMatchObject({ error: 'server-busy' });
        const second = await postOverSocket(port, agent, c.token, bigBody);
        expect(second.status).toBe(503);
        expect(second.reusedSocket, 'the second request went on the same connection').toBe(true);
      } finally {
        agent.destroy();
      }
      const bSmall = await connectorCall(app, 'POST', '/import-records', b.token, {
        records: [importRecord()],
      });
      expect(bSmall.statusCode).toBe(200);
      expect(await held.finish()).toBe('HTTP/1.1 200 OK');
      expect(bodies.held()).toBe(0);
      // Given back: A's next big body is taken.
      const after = await connectorCall(app, 'POST', '/import-records', a.token, batchOf('AFTER', 8, 150));
      expect(after.statusCode, after.body).toBe(200);
      expect(app.server.listening).toBe(true);
    } finally {
      held?.cut();
      await app.close();
    }
  });
});
