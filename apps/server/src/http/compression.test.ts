import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { SYNC_HISTORY_EXPORT_PATH, syncHistoryRecordPath } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation, signIn, testApp } from '../../test/helpers/app.ts';
import { openTestDb } from '../../test/helpers/db.ts';
import { decoded, varies } from '../../test/helpers/encoded-answer.ts';
import { insertRecords, insertRecordSeries } from '../../test/helpers/history.ts';
import type { Db, QueryOptions, Queryable } from '../db/types.ts';

/**
 * Compression of the API's answers (installCompression): what the client accepts, nothing for
 * small answers or binary files, CSV exports still streamed batch by batch.
 */

/** Export batches read after the first one wait until the test opens the gate. */
class ExportGate {
  private counting = false;
  private closed = false;
  private batches = 0;
  private open: () => void = () => {};
  private opened: Promise<void> = Promise.resolve();

  /** Counts the export's batches from now on; every one after the first waits for release(). */
  arm(): void {
    this.counting = true;
    this.closed = true;
    this.batches = 0;
    this.opened = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.closed = false;
    this.open();
  }

  disarm(): void {
    this.release();
    this.counting = false;
  }

  get batchesRead(): number {
    return this.batches;
  }

  private async pass(sql: string): Promise<void> {
    if (!this.counting || !/FROM import_records WHERE/.test(sql)) return;
    this.batches += 1;
    if (this.closed && this.batches > 1) await this.opened;
  }

  wrap(q: Queryable): Queryable {
    return {
      query: async <T = Record<string, unknown>>(
        sql: string,
        params?: readonly unknown[],
        options?: QueryOptions,
      ) => {
        await this.pass(sql);
        return q.query<T>(sql, params, options);
      },
      exec: (sql) => q.exec(sql),
    };
  }

  db(db: Db): Db {
    return {
      ...this.wrap(db),
      kind: db.kind,
      transaction: (fn) => db.transaction((tx) => fn(this.wrap(tx))),
      close: () => db.close(),
    };
  }
}

const ROWS = 12_000; // with the two file records: three export batches of 5 000

let db: Db;
let app: FastifyInstance;
let base: string;
let cookie: string;
const gate = new ExportGate();

beforeAll(async () => {
  db = await openTestDb();
  app = await testApp(gate.db(db));
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const { installation } = await addInstallation(db, { syncId: 'GZIP0001' });
  await insertRecordSeries(db, installation.id, {
    prefix: 'EXP',
    count: ROWS,
    newest: '2025-03-01T12:00:00Z',
    stepMinutes: 1,
  });
  await insertRecords(db, installation.id, [
    {
      IDInterne: 'PDF1',
      DateHeure: '2025-03-02T12:00:00Z',
      file: { name: 'devis.pdf', content: PDF },
    },
    {
      IDInterne: 'BIN1',
      DateHeure: '2025-03-02T12:00:00Z',
      file: { name: 'donnees', content: PDF },
    },
  ]);
  cookie = await signIn(app, 'GZIP0001');
});
afterAll(async () => {
  gate.disarm();
  await app.close();
  await db.close();
});

/** A PDF-like file that would compress well: only its type keeps it from being compressed. */
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(8000, 'A')]);

describe('JSON answers', () => {
  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
  ])('GET /api/user with « %s »: %s, the same JSON once decoded', async (accept, expected) => {
    const plain = await app.inject({ url: '/api/user', headers: { cookie } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(100_000); // the configuration is in it

    const res = await app.inject({ url: '/api/user', headers: { cookie, 'accept-encoding': accept } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(expected);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(varies(res)).toBe(true);
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);
    expect(decoded(res).equals(plain.rawPayload)).toBe(true);
  });

  it.each([['identity'], ['deflate'], ['']])('« %s » accepted: sent as it is', async (accept) => {
    const res = await app.inject({ url: '/api/user', headers: { cookie, 'accept-encoding': accept } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toMatchObject({ IDSynchro: 'GZIP0001' });
  });

  it('an answer under 1 KB is not compressed', async () => {
    const res = await app.inject({ url: '/api/user', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toHaveProperty('message');
  });

  it('HEAD /api/user: 200 without a body', async () => {
    const res = await app.inject({
      method: 'HEAD',
      url: '/api/user',
      headers: { cookie, 'accept-encoding': 'br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBe(0);
  });
});

describe('file downloads', () => {
  it('a PDF and an unknown binary are sent as they are, even to a client accepting br', async () => {
    for (const id of ['PDF1', 'BIN1']) {
      const res = await app.inject({
        url: syncHistoryRecordPath(id, 'file'),
        headers: { cookie, 'accept-encoding': 'br, gzip' },
      });
      expect(res.statusCode, id).toBe(200);
      expect(res.headers['content-encoding'], id).toBeUndefined();
      expect(res.rawPayload.equals(PDF), id).toBe(true);
    }
  });
});

/** GET over a real socket; `onFirstBytes` runs when the first decoded bytes arrive. */
function download(
  url: string,
  headers: Record<string, string>,
  onFirstBytes: () => void,
): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const encoding = res.headers['content-encoding'];
        const body =
          encoding === 'br'
            ? res.pipe(createBrotliDecompress())
            : encoding === 'gzip'
              ? res.pipe(createGunzip())
              : res;
        const chunks: Buffer[] = [];
        body.on('data', (chunk: Buffer) => {
          if (chunks.length === 0) onFirstBytes();
          chunks.push(chunk);
        });
        body.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        body.on('error', reject);
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

describe('CSV exports', () => {
  it.each([['gzip'], ['br']])(
    '%s: the first rows arrive while later batches are still unread, the whole file intact once decoded',
    async (encoding) => {
      const url = `${base}${SYNC_HISTORY_EXPORT_PATH}`;
      const reference = await download(url, { cookie, 'accept-encoding': 'identity' }, () => {});
      expect(reference.headers['content-encoding']).toBeUndefined();
      const lines = reference.body.toString('utf8').split('\r\n');
      // The header, the series, the two records with a file, and '' after the last CRLF.
      expect(lines.length).toBe(1 + ROWS + 2 + 1);
      expect(lines[0]?.startsWith('\uFEFF')).toBe(true);

      gate.arm();
      let readBeforeFirstBytes = -1;
      // If the answer were held until its end, no byte would come while the gate is closed.
      const deadlock = setTimeout(() => gate.release(), 15_000);
      const res = await download(url, { cookie, 'accept-encoding': encoding }, () => {
        readBeforeFirstBytes = gate.batchesRead;
        gate.release();
      });
      clearTimeout(deadlock);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="historique-importation/);
      expect(res.headers['content-length']).toBeUndefined();
      expect(varies(res)).toBe(true);
      // First bytes came with the first batch read, the second asked for and held at the gate.
      expect(readBeforeFirstBytes).toBeGreaterThanOrEqual(1);
      expect(readBeforeFirstBytes).toBeLessThanOrEqual(2);
      expect(gate.batchesRead).toBe(3);
      gate.disarm();
      expect(res.body.equals(reference.body)).toBe(true);
    },
  );
});
