import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../../test/helpers/app.ts';
import { openTestDb } from '../../test/helpers/db.ts';
import { decoded, varies, variesOn } from '../../test/helpers/encoded-answer.ts';

/**
 * The built SPA as the server sends it: the precompressed sibling the client accepts (the build
 * writes them: apps/web/vite.config.ts; here the test writes them the same way), never a dotfile.
 */

const web = mkdtempSync(join(tmpdir(), 'synchro-spa-'));
const INDEX = Buffer.from(`<!doctype html><title>Synchro</title>${'<!-- padding -->'.repeat(100)}`);
const SCRIPT = Buffer.from(
  `export const values = [${Array.from({ length: 800 }, (_, i) => i).join(',')}];\n`,
);
const SIGNED_IN = Buffer.from(
  `<!doctype html><title>Synchro</title><link rel="modulepreload" href="/assets/shell.js">${'<!-- padding -->'.repeat(100)}`,
);
const STYLE = Buffer.from(`.a{color:red}\n`.repeat(200));
const SMALL = Buffer.from('console.log(1)');

function withSiblings(path: string, content: Buffer, which: ('br' | 'gz')[] = ['br', 'gz']) {
  writeFileSync(path, content);
  if (which.includes('br')) writeFileSync(`${path}.br`, brotliCompressSync(content));
  if (which.includes('gz')) writeFileSync(`${path}.gz`, gzipSync(content));
}

let db: Awaited<ReturnType<typeof openTestDb>>;
let app: FastifyInstance;

beforeAll(async () => {
  mkdirSync(join(web, 'assets'));
  mkdirSync(join(web, '.git'));
  withSiblings(join(web, 'index.html'), INDEX);
  withSiblings(join(web, 'index-signed-in.html'), SIGNED_IN);
  withSiblings(join(web, 'assets', 'app-abc123.js'), SCRIPT);
  withSiblings(join(web, 'assets', 'style-abc123.css'), STYLE, ['gz']);
  writeFileSync(join(web, 'assets', 'small-abc123.js'), SMALL);
  writeFileSync(join(web, '.env'), 'SESSION_SECRET=ne-doit-jamais-sortir');
  writeFileSync(join(web, '.git', 'config'), '[remote "origin"] ne-doit-jamais-sortir');
  writeFileSync(join(web, 'assets', '.hidden.js'), 'ne-doit-jamais-sortir');
  db = await openTestDb();
  app = await testApp(db, { webDistDir: web });
});
afterAll(async () => {
  await app.close();
  await db.close();
  rmSync(web, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  app.inject({ method, url, headers });

describe('precompressed files', () => {
  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip;q=1', 'gzip'],
  ])(
    'Accept-Encoding « %s » gets %s, the same bytes once decoded, with the type and caching of the file',
    async (accept, expected) => {
      const res = await get('/assets/app-abc123.js', { 'accept-encoding': accept });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(expected);
      expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(varies(res)).toBe(true);
      // The build's file itself, not a compression made for this request.
      const sibling = join(web, 'assets', `app-abc123.js.${expected === 'br' ? 'br' : 'gz'}`);
      expect(res.rawPayload.equals(readFileSync(sibling))).toBe(true);
      expect(decoded(res).equals(SCRIPT)).toBe(true);
    },
  );

  it.each([[undefined], ['identity'], ['deflate']])(
    'Accept-Encoding %s: the file as it is, still marked as varying',
    async (accept) => {
      const res = await get('/assets/app-abc123.js', accept ? { 'accept-encoding': accept } : {});
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-length']).toBe(String(SCRIPT.length));
      expect(varies(res)).toBe(true);
      expect(res.rawPayload.equals(SCRIPT)).toBe(true);
    },
  );

  it('a file with only a .gz sends it to a client that prefers brotli', async () => {
    const res = await get('/assets/style-abc123.css', { 'accept-encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/^text\/css/);
    expect(decoded(res).equals(STYLE)).toBe(true);
  });

  it('a file under 1 KB (no sibling) arrives identical', async () => {
    const res = await get('/assets/small-abc123.js', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(decoded(res).equals(SMALL)).toBe(true);
  });

  it('index.html, at / and for a client route, is compressed and revalidated', async () => {
    for (const url of ['/', '/planning', '/auth?syncId=A']) {
      const res = await get(url, { 'accept-encoding': 'br' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(varies(res), url).toBe(true);
      expect(decoded(res).equals(INDEX), url).toBe(true);
      expect(res.rawPayload.equals(readFileSync(join(web, 'index.html.br'))), url).toBe(true);
    }
  });

  it('ETag: each encoding has its own, and a matching If-None-Match answers 304', async () => {
    const br = await get('/assets/app-abc123.js', { 'accept-encoding': 'br' });
    const plain = await get('/assets/app-abc123.js');
    expect(br.headers.etag).toBeTruthy();
    expect(plain.headers.etag).toBeTruthy();
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    const again = await get('/assets/app-abc123.js', {
      'accept-encoding': 'br',
      'if-none-match': String(br.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('HEAD gives the headers of the compressed file and no body', async () => {
    const res = await get('/assets/app-abc123.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(varies(res)).toBe(true);
    expect(res.rawPayload.length).toBe(0);
  });
});

describe('/assets/ from memory (http/static-assets.ts)', () => {
  it('a file is read at start: its bytes are sent even once gone from disk; a new file is read from disk', async () => {
    const before = await get('/assets/app-abc123.js', { 'accept-encoding': 'br' });
    const kept = readFileSync(join(web, 'assets', 'app-abc123.js.br'));
    rmSync(join(web, 'assets', 'app-abc123.js.br'));
    try {
      const res = await get('/assets/app-abc123.js', { 'accept-encoding': 'br' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.rawPayload.equals(kept)).toBe(true);
      expect(res.headers.etag).toBe(before.headers.etag);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    } finally {
      writeFileSync(join(web, 'assets', 'app-abc123.js.br'), kept);
    }
    withSiblings(join(web, 'assets', 'late-def456.js'), SCRIPT);
    const late = await get('/assets/late-def456.js', { 'accept-encoding': 'gzip' });
    expect(late.statusCode).toBe(200);
    expect(late.headers['content-encoding']).toBe('gzip');
    expect(decoded(late).equals(SCRIPT)).toBe(true);
    expect((await get('/assets/missing-000000.js')).statusCode).toBe(404);
    expect((await get('/assets/.hidden.js')).statusCode).toBe(404);
  });
});

describe('the page of a signed-in visit', () => {
  const cookie = { cookie: `synchro_session=${'a'.repeat(43)}`, 'accept-encoding': 'br' };

  it.each(['/', '/auth', '/auth?syncId=A'])(
    '%s with a session cookie: the page that preloads Général, precompressed, varying on the cookie',
    async (url) => {
      const res = await get(url, cookie);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(decoded(res).equals(SIGNED_IN)).toBe(true);
      expect(variesOn(res, 'cookie')).toBe(true);
      expect(varies(res)).toBe(true);
    },
  );

  it.each([
    ['/planning', cookie],
    ['/', { 'accept-encoding': 'br' }],
    ['/auth', { 'accept-encoding': 'br', cookie: 'synchro_session=not-a-session-token' }],
  ])('%s %j: index.html', async (url, headers) => {
    const res = await get(url, headers);
    expect(res.statusCode).toBe(200);
    expect(decoded(res).equals(INDEX)).toBe(true);
  });

  it('is also a plain built file at its own name (it holds nothing secret)', async () => {
    const res = await get('/index-signed-in.html', { 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(200);
    expect(decoded(res).equals(SIGNED_IN)).toBe(true);
  });
});

describe('what is never served', () => {
  it.each(['/.env', '/%2eenv', '/.git/config', '/assets/.hidden.js', '/.env.br'])(
    '%s: 404, not the file and not the SPA',
    async (url) => {
      for (const headers of [{}, { 'accept-encoding': 'br, gzip' }] as Record<string, string>[]) {
        const res = await get(url, headers);
        expect(res.statusCode, url).toBe(404);
        expect(decoded(res).toString(), url).not.toContain('ne-doit-jamais-sortir');
        expect(res.json(), url).toMatchObject({ code: 'NOT_FOUND' });
      }
    },
  );

  it('a missing build file under /assets/ is a 404, not index.html', async () => {
    const res = await get('/assets/app-old999.js', { 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
