import { CONFIG_SECTIONS } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation, signIn, testApp } from '../../test/helpers/app.ts';
import { openTestDb } from '../../test/helpers/db.ts';
import type { Db } from '../db/types.ts';
import { brotliQuality, encode, preferredEncoding, RepresentationStore } from './representations.ts';

let db: Db;
let app: FastifyInstance;
const store = new RepresentationStore();

beforeAll(async () => {
  db = await openTestDb();
  app = await testApp(db, { representations: store });
  // Two installations with the same configuration text: same section bytes but for the version.
  await addInstallation(db, { syncId: 'REPR001' });
  await addInstallation(db, { syncId: 'REPR002' });
});
afterAll(async () => {
  await app.close();
  await db.close();
});

const BROWSER = 'br, gzip';

async function get(url: string, cookie: string, headers: Record<string, string> = {}) {
  return app.inject({ url, headers: { cookie, ...headers } });
}

function decoded(res: { rawPayload: Buffer; headers: Record<string, unknown> }): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString('utf8');
  expect(encoding).toBeUndefined();
  return res.rawPayload.toString('utf8');
}

const ROUTES = [
  '/api/user',
  '/api/dashboard',
  CONFIG_SECTIONS.sources.getPath,
  CONFIG_SECTIONS.planifications.getPath,
];

describe('stored representations over the routes', () => {
  it.each(ROUTES)('%s: br and gzip decode to the plain answer, each with its ETag, Vary', async (url) => {
    const cookie = await signIn(app, 'REPR001');
    const plain = await get(url, cookie);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const tag = String(plain.headers.etag);
    expect(tag).toMatch(/^"[\w-]+"$/);
    if (plain.rawPayload.length < 1024) {
      // Below the threshold: sent as it is whatever the client accepts.
      const res = await get(url, cookie, { 'accept-encoding': BROWSER });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.etag).toBe(tag);
      return;
    }
    for (const encoding of ['br', 'gzip'] as const) {
      const res = await get(url, cookie, { 'accept-encoding': encoding === 'br' ? BROWSER : 'gzip' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(decoded(res)).toBe(plain.body);
      expect(res.headers.etag).toBe(`${tag.slice(0, -1)}-${encoding}"`);
      expect(String(res.headers.vary).toLowerCase().split(/,\s*/)).toEqual(['accept-encoding']);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    }
    expect(String(plain.headers.vary).toLowerCase()).toContain('accept-encoding');
  });

  it('a repeated answer is compressed once, then sent from the store', async () => {
    const cookie = await signIn(app, 'REPR001');
    const first = await get('/api/user', cookie, { 'accept-encoding': BROWSER });
    const before = store.compressions;
    for (let i = 0; i < 3; i += 1) {
      const again = await get('/api/user', cookie, { 'accept-encoding': BROWSER });
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    }
    expect(store.compressions).toBe(before);
    expect(store.bytesOf((await installationIdOf('REPR001')) ?? '')).toBeGreaterThan(0);
  });

  it('/api/user holds nothing of the session: two sessions get the same bytes and ETag', async () => {
    const a = await get('/api/user', await signIn(app, 'REPR001'));
    const b = await get('/api/user', await signIn(app, 'REPR001'));
    expect(a.body).toBe(b.body);
    expect(a.headers.etag).toBe(b.headers.etag);
  });

  it('/api/dashboard is stable between requests (what changes it: the automate, the storage, the day): same ETag', async () => {
    const cookie = await signIn(app, 'REPR001');
    const a = await get('/api/dashboard', cookie, { 'accept-encoding': BROWSER });
    const b = await get('/api/dashboard', cookie, {
      'accept-encoding': BROWSER,
      'if-none-match': String(a.headers.etag),
    });
    expect(b.statusCode).toBe(304);
  });

  it.each(ROUTES)(
    '%s: If-None-Match with its ETag (any encoding, W/) answers 304 without a body',
    async (url) => {
      const cookie = await signIn(app, 'REPR001');
      const full = await get(url, cookie, { 'accept-encoding': BROWSER });
      const tag = String(full.headers.etag);
      for (const inm of [
        tag,
        tag.replace('-br"', '"'),
        `W/${tag}`,
        `"other", ${tag.replace('-br"', '-gzip"')}`,
      ]) {
        const res = await get(url, cookie, { 'accept-encoding': BROWSER, 'if-none-match': inm });
        expect(res.statusCode, inm).toBe(304);
        expect(res.rawPayload.length).toBe(0);
        expect(res.headers.etag).toBe(tag.replace('-br"', '"'));
        expect(res.headers['content-encoding']).toBeUndefined();
      }
      const other = await get(url, cookie, { 'accept-encoding': BROWSER, 'if-none-match': '"nope"' });
      expect(other.statusCode).toBe(200);
    },
  );

  it('a 304 is never given without a session: the session is checked first', async () => {
    const cookie = await signIn(app, 'REPR001');
    const tag = String((await get('/api/user', cookie)).headers.etag);
    const res = await app.inject({ url: '/api/user', headers: { 'if-none-match': tag } });
    expect(res.statusCode).toBe(401);
  });

  it('a section save: the next read sends the new bytes, with a new ETag, in every encoding', async () => {
    const cookie = await signIn(app, 'REPR002');
    const url = CONFIG_SECTIONS.sources.getPath;
    const before = await get(url, cookie, { 'accept-encoding': BROWSER });
    const userBefore = await get('/api/user', cookie, { 'accept-encoding': BROWSER });
    const view = JSON.parse(decoded(before)) as { version: number; data: { sources: { Serveur: string }[] } };
    const sources = view.data.sources;
    (sources[1] as { Serveur: string }).Serveur = 'SRV-REPR-2';
    const saved = await app.inject({
      method: 'POST',
      url: '/api/database/sources',
      headers: { cookie, 'if-match': String(before.headers.etag) },
      payload: { sources },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    for (const encoding of [BROWSER, 'gzip', '']) {
      const after = await get(url, cookie, {
        'accept-encoding': encoding,
        'if-none-match': String(before.headers.etag),
      });
      expect(after.statusCode).toBe(200);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(String(after.headers.etag)).toMatch(/^"2-/);
      const body = JSON.parse(decoded(after)) as typeof view;
      expect(body.version).toBe(2);
      expect(body.data.sources[1]?.Serveur).toBe('SRV-REPR-2');
    }
    const userAfter = await get('/api/user', cookie, { 'accept-encoding': BROWSER });
    expect(userAfter.headers.etag).not.toBe(userBefore.headers.etag);
    expect(decoded(userAfter)).toContain('SRV-REPR-2');
    expect(decoded(userBefore)).not.toContain('SRV-REPR-2');
  });

  it("never one installation's answer to another: different ETags, its own bytes, no 304 on the other's tag", async () => {
    const a = await signIn(app, 'REPR001');
    const b = await signIn(app, 'REPR002');
    for (const url of ROUTES) {
      const ofA = await get(url, a, { 'accept-encoding': BROWSER });
      const ofB = await get(url, b, {
        'accept-encoding': BROWSER,
        'if-none-match': String(ofA.headers.etag),
      });
      expect(ofB.statusCode, url).toBe(200);
      expect(ofB.headers.etag).not.toBe(ofA.headers.etag);
      if (url === '/api/user') {
        expect(JSON.parse(decoded(ofA))).toMatchObject({ IDSynchro: 'REPR001' });
        expect(JSON.parse(decoded(ofB))).toMatchObject({ IDSynchro: 'REPR002' });
      }
    }
  });

  it('the same bytes in two installations are still two entries, each under its installation', async () => {
    const own = new RepresentationStore();
    const body = Buffer.from('x'.repeat(4000));
    await own.encoded('inst-a', '/r', 'tag-a', body, 'br');
    await own.encoded('inst-b', '/r', 'tag-b', body, 'br');
    expect(own.compressions).toBe(2);
    expect(own.bytesOf('inst-a')).toBeGreaterThan(0);
    expect(own.bytesOf('inst-b')).toBe(own.bytesOf('inst-a'));
  });
});

async function installationIdOf(syncId: string): Promise<string | undefined> {
  const [row] = await db.query<{ id: string }>('SELECT id FROM installations WHERE sync_id = $1', [syncId]);
  return row?.id;
}

describe('RepresentationStore: memory', () => {
  // Random bytes: they do not compress, so each entry weighs its 20 000 bytes.
  const body = (_seed: number) => randomBytes(20_000);

  it('a new content replaces the entry of its route: the old bytes are gone', async () => {
    const own = new RepresentationStore();
    await own.encoded('i', '/r', 'v1', body(3), 'gzip');
    const size1 = own.bytes;
    await own.encoded('i', '/r', 'v2', body(5), 'gzip');
    expect(own.bytes).toBeLessThanOrEqual(size1 * 2);
    expect(own.bytes).toBe(own.bytesOf('i'));
    const again = own.compressions;
    await own.encoded('i', '/r', 'v2', body(5), 'gzip');
    expect(own.compressions).toBe(again);
    await own.encoded('i', '/r', 'v1', body(3), 'gzip');
    expect(own.compressions).toBe(again + 1);
  });

  it('one installation past its share evicts only its own entries', async () => {
    const own = new RepresentationStore({ totalBytes: 1_000_000, perInstallationBytes: 60_000 });
    await own.encoded('quiet', '/user', 't', body(7), 'gzip');
    const quiet = own.bytesOf('quiet');
    expect(quiet).toBeGreaterThan(0);
    for (let i = 0; i < 50; i += 1) await own.encoded('noisy', `/r${i}`, 't', body(11 + i), 'gzip');
    expect(own.bytesOf('noisy')).toBeLessThanOrEqual(60_000);
    expect(own.bytesOf('quiet')).toBe(quiet);
    const before = own.compressions;
    await own.encoded('quiet', '/user', 't', body(7), 'gzip');
    expect(own.compressions).toBe(before);
  });

  it('past the budget, the least recently used entries go, and the total stays within it', async () => {
    const own = new RepresentationStore({ totalBytes: 100_000, perInstallationBytes: 60_000 });
    for (let i = 0; i < 40; i += 1) await own.encoded(`inst${i}`, '/user', 't', body(13 + i), 'gzip');
    expect(own.bytes).toBeLessThanOrEqual(100_000);
    expect(own.bytesOf('inst0')).toBe(0);
    expect(own.bytesOf('inst39')).toBeGreaterThan(0);
  });

  it('an answer larger than the share is sent but not kept', async () => {
    const own = new RepresentationStore({ totalBytes: 100_000, perInstallationBytes: 1_000 });
    const plain = body(17);
    const bytes = await own.encoded('i', '/r', 't', plain, 'gzip');
    expect(gunzipSync(bytes).equals(plain)).toBe(true);
    expect(own.bytes).toBe(0);
  });
});

describe('encode', () => {
  it('brotli 11 up to 256 KB, 6 past it; both decode to the bytes', async () => {
    expect(brotliQuality(256 * 1024)).toBe(11);
    expect(brotliQuality(256 * 1024 + 1)).toBe(6);
    const big = Buffer.from('<Ligne>valeur</Ligne>'.repeat(20_000));
    expect(brotliDecompressSync(await encode(big, 'br')).equals(big)).toBe(true);
    expect(gunzipSync(await encode(big, 'gzip')).equals(big)).toBe(true);
  });
});

describe('preferredEncoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['br, gzip', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['identity', null],
    ['*', 'br'],
    ['gzip;q=0, *', 'br'],
    ['br;q=0, *;q=0.5', 'gzip'],
    ['deflate', null],
  ])('%s → %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});
