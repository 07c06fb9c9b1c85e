import { parseConfig } from '@synchro/config-xml';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/types.ts';
import { addInstallation, FIXTURE_CONFIG, signIn, testApp } from './app.ts';
import { openTestDb } from './db.ts';
import { insertRecords, insertTransactions } from './history.ts';
import { dataSnapshot, isConnectorRoute, routesOfTheApp, sampleOf, type AppRoute } from './route-catalog.ts';
import { inPostgresPass } from './passes.ts';
import { getConfiguration } from '../../src/domain/configurations.ts';

/**
 * A seeded fuzzer over every route of the app: valid bodies (the contract-shaped samples of
 * ROUTE_SAMPLES) mutated field by field (wrong types, huge and odd strings, nulls, deep nesting,
 * prototype keys), broken bodies (invalid JSON, duplicate keys, wrong content types, stray bytes),
 * odd query strings and headers; signed in as A, signed out, and with A's connector token.
 * Rules checked on every answer: no 5xx, errors in French in the route's shape, nothing of B's in
 * it, and A's data changes only on a 2xx. At the end: the server still answers, B's rows are
 * byte for byte as before, A's configuration still parses.
 *
 * FUZZ_SEED replays a run (the seed is in every failure message); FUZZ_RUNS sets the number of
 * requests (10 000 by default).
 */

const BASE_SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
// 10 000 on the embedded database; the PostgreSQL pass (the same routes and checks on the other
// driver) sends a quarter as many.
const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? (inPostgresPass ? 2_500 : 10_000));
/** This file's seed and number of requests (set by fuzzSuite). */
let SEED = BASE_SEED;
let RUNS = TOTAL_RUNS;

/** mulberry32: small, fast, good enough for picking mutations. */
function prng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[int(items.length)] as T,
  };
}
type Rng = ReturnType<typeof prng>;

/** B's ids (the fuzzer sends them: an answer may echo them). */
const B_ID = 'BETAFUZZ';
/** Found only in B's stored data, never in a request: an answer holding it leaked B's data. */
const B_MARK = 'BCONTENTQZ';
const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\udfff\ud800',
  '\u202e\u200b\ufeff',
  'é'.normalize('NFD'),
  '💥🇫🇷',
  '%00%ff%',
  '../../etc/passwd',
  "'; DROP TABLE import_records; --",
  '<script>alert(1)</script>',
  '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '\r\nSet-Cookie: x=1',
  'NaN',
  '-1',
  '1e999',
  '0x10',
  'true',
  'null',
  '__proto__',
  '2025-02-30T25:61:00',
  '9'.repeat(400),
];
const ODD_NUMBERS = [0, -1, 1.5, -0, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, Number.MAX_SAFE_INTEGER];

function oddValue(rng: Rng): unknown {
  switch (rng.int(9)) {
    case 0:
      return rng.pick(ODD_STRINGS);
    case 1:
      return rng.pick(ODD_NUMBERS);
    case 2:
      return rng.pick([null, true, false]);
    case 3:
      return [];
    case 4:
      return {};
    case 5:
      return rng.pick(['x', 'é', '\u0001', '💥']).repeat(rng.pick([300, 5_000, 100_000]));
    case 6:
      return { __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } };
    case 7:
      return [rng.pick(ODD_STRINGS), null, { a: 1 }];
    default:
      return String.fromCharCode(...Array.from({ length: 1 + rng.int(40) }, () => rng.int(0xffff)));
  }
}

/** Every path into a JSON value (objects and arrays), the value itself included. */
function paths(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out);
  return out;
}

function setAt(root: unknown, path: (string | number)[], value: unknown, remove = false): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (remove) delete node[last];
  else node[last] = value;
  return copy;
}

/** JSON text: valid bodies mutated, or texts no JSON parser should accept quietly. */
function fuzzBody(rng: Rng, valid: unknown): string | undefined {
  const base = valid ?? {};
  switch (rng.int(12)) {
    case 0:
      return valid === undefined ? undefined : JSON.stringify(valid);
    case 1:
    case 2:
    case 3: {
      const path = rng.pick(paths(base));
      return JSON.stringify(setAt(base, path, oddValue(rng)));
    }
    case 4: {
      const path = rng.pick(paths(base));
      return JSON.stringify(path.length ? setAt(base, path, undefined, true) : {});
    }
    case 5: {
      const depth = rng.pick([100, 1_000, 100_000]);
      const [open, close] = rng.pick([
        ['[', ']'],
        ['{"a":', '}'],
      ] as const);
      const nested = open.repeat(depth) + '1' + close.repeat(depth);
      const path = rng.pick(paths(base));
      return JSON.stringify(setAt(base, path, '@@')).replace('"@@"', nested);
    }
    case 6: {
      const text = JSON.stringify(base);
      return text.slice(0, rng.int(text.length));
    }
    case 7:
      return rng.pick([
        '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
        `{"a":1,"a":2,${JSON.stringify(base).slice(1)}`,
        'null',
        '[]',
        '"x"',
        '1',
        'true',
        '{"records":[1,2,3]}',
        '\ufeff{}',
        '{} {}',
        '{"a":1}\u0000',
      ]);
    case 8: {
      const text = JSON.stringify(base);
      const key = rng.pick(Object.keys(base as object).concat('x'));
      return text.replace('{', `{"${key}":${JSON.stringify(oddValue(rng))},`);
    }
    case 9:
      return JSON.stringify({ ...(base as object), __proto__: { polluted: 1 }, ['constructor']: { a: 1 } });
    case 10:
      return String.fromCharCode(...Array.from({ length: rng.int(200) }, () => rng.int(256)));
    default: {
      const path = rng.pick(paths(base));
      return JSON.stringify(setAt(base, path, [oddValue(rng), oddValue(rng)]));
    }
  }
}

/** Percent-encoding that survives lone surrogates (replaced by U+FFFD, as a browser would). */
const enc = (text: string) =>
  encodeURIComponent(
    text.replace(/[\ud800-\udfff]/g, (c, i: number, all: string) => {
      const code = c.charCodeAt(0);
      const pair = code < 0xdc00 ? all.charCodeAt(i + 1) : all.charCodeAt(i - 1);
      const paired = code < 0xdc00 ? pair >= 0xdc00 && pair <= 0xdfff : pair >= 0xd800 && pair < 0xdc00;
      return paired ? c : '\ufffd';
    }),
  );

const QUERY_KEYS = [
  'page',
  'pageSize',
  'errorOnly',
  'date',
  'dateFilter',
  'search',
  'searchText',
  'cursor',
  'limit',
  'x',
  '__proto__',
  'constructor',
];

function fuzzQuery(rng: Rng, valid: string): string {
  if (rng.chance(0.2)) return valid;
  const parts: string[] = [];
  for (let i = rng.int(5); i >= 0; i--) {
    const key = rng.pick(QUERY_KEYS);
    const raw = rng.pick([
      enc(String(oddValue(rng)).slice(0, 3000)),
      '%ZZ',
      '%',
      '%00',
      '%C3',
      '',
      '1',
      '-5',
      '99999999999999999999',
      'true',
      '2025-01-01',
      '%25%5F%5C%27%22',
    ]);
    const k = rng.pick([key, `${key}[]`, `${key}[0]`, `${key}.a`]);
    parts.push(`${k}=${raw}`);
    if (rng.chance(0.3)) parts.push(`${k}=${raw}2`);
  }
  return `?${parts.join('&')}`;
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
  '',
  'application/json, text/plain',
];

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;

let db: Db;
let app: FastifyInstance;
const a = { id: '', cookie: '', token: '' };
let bId = '';

/** What of A the routes may change, read after every request. */
async function digestA(): Promise<string> {
  // Every write makes a new row version with a newer transaction id (xmin): the count and the
  // newest xmin of each table change with any insert, update or delete.
  const [row] = await db.query<{ d: string }>(
    `SELECT concat_ws('/',
       (SELECT version || ':' || xmin::text FROM configurations WHERE installation_id = $1),
       (SELECT count(*) || ':' || coalesce(max(xmin::text::bigint), 0) FROM import_records WHERE installation_id = $1),
       (SELECT count(*) || ':' || coalesce(max(xmin::text::bigint), 0) FROM transaction_logs WHERE installation_id = $1),
       (SELECT xmin::text FROM automate_registrations WHERE installation_id = $1)) AS d`,
    [a.id],
    { prepare: 'fuzz-digest-a' },
  );
  return row?.d ?? '';
}

interface Case {
  route: AppRoute;
  request: InjectOptions & { url: string };
  label: string;
}

function buildCase(rng: Rng, routes: readonly AppRoute[], bodies: Map<AppRoute, unknown>): Case {
  const route = rng.pick(routes);
  const sample = sampleOf(route);
  const connector = isConnectorRoute(route);
  const headers: Record<string, string | string[]> = {};
  let auth: string;
  if (connector) {
    auth = rng.pick(['token', 'token', 'token', 'none', 'odd']);
    if (auth === 'token') headers.authorization = `Bearer ${a.token}`;
    if (auth === 'odd')
      headers.authorization = rng.pick([
        `Bearer ${a.token}x`,
        `bearer ${a.token}`,
        `Bearer  ${a.token}`,
        [`Bearer ${a.token}`, 'Bearer x'],
        `Bearer ${String(oddValue(rng)).slice(0, 2000)}`,
      ]) as string;
  } else if (sample.kind === 'stream') {
    // A signed-in event stream never ends: only its refusals are fuzzed (its isolation and
    // events: features/live/live.test.ts).
    auth = 'none';
    if (rng.chance(0.5)) headers.cookie = `synchro_session=${enc(String(oddValue(rng)).slice(0, 3000))}`;
  } else {
    auth = rng.pick(['session', 'session', 'session', 'none', 'odd']);
    if (auth === 'session') headers.cookie = a.cookie;
    if (auth === 'odd')
      headers.cookie = rng.pick([
        `${a.cookie}x`,
        `${a.cookie}; ${a.cookie.replace(/=.*/, '=forged')}`,
        [a.cookie, 'synchro_session=x'],
        'synchro_session=',
        `synchro_session=${enc(String(oddValue(rng)).slice(0, 3000))}`,
      ]) as string;
  }
  const ids = ['A-R1', 'A-T1', 'FUZZ-REC-1', `${B_ID}-R1`, `${B_ID}-T1`, String(oddValue(rng)).slice(0, 300)];
  let url = route.url.includes(':') ? route.url.replace(/:[A-Za-z]+/, enc(rng.pick(ids))) : route.url;
  if (rng.chance(0.05))
    url = url.replace(/\/[^/]*$/, `/${rng.pick(['%ZZ', '%00', '..', '%2e%2e', 'x'.repeat(3000)])}`);
  url += fuzzQuery(rng, sample.query ?? '');

  let method = route.method;
  if (rng.chance(0.03)) method = rng.pick(METHODS);
  const body = fuzzBody(rng, bodies.get(route));
  if (body !== undefined || rng.chance(0.5))
    headers['content-type'] = rng.chance(0.8) ? 'application/json' : rng.pick(CONTENT_TYPES);
  if (headers['content-type'] === '') delete headers['content-type'];
  if (rng.chance(0.15)) {
    const extra = rng.pick([
      ['if-match', rng.pick(['"1"', '"999"', 'W/"1"', '*', '"x', String(oddValue(rng)).slice(0, 200)])],
      ['if-none-match', rng.pick(['"1"', '*', 'W/"2", "3"', ',,,', String(oddValue(rng)).slice(0, 200)])],
      ['accept-encoding', rng.pick(['gzip', 'br;q=2, *', 'identity;q=0', 'x'.repeat(500)])],
      ['x-forwarded-for', rng.pick(['1.2.3.4', '::1, 8.8.8.8', 'garbage', ''])],
      ['origin', rng.pick(['http://evil.test', 'null', 'http://localhost:80'])],
      ['sec-fetch-site', 'cross-site'],
      ['content-length', String(rng.pick([0, 1, 10 ** 12]))],
      ['range', 'bytes=0-1'],
      ['host', rng.pick(['', 'evil.test', 'x'.repeat(300)])],
    ] as const);
    headers[extra[0]] = extra[1];
  }
  const label =
    `seed ${SEED}: ${method} ${url.slice(0, 200)} [${auth}] ${JSON.stringify(headers).slice(0, 300)} body ${String(body).slice(0, 300)}`
      .replaceAll(a.token, '<jeton de A>')
      .replaceAll(a.cookie, '<session de A>');
  return {
    route,
    label,
    request: {
      method: method as InjectOptions['method'],
      url,
      headers: headers as InjectOptions['headers'],
      ...(body !== undefined ? { payload: body } : {}),
      // Login failures are counted per address: the fuzzer's come from everywhere but the
      // address A signs in again from.
      remoteAddress:
        route.url === '/api/login' ? `10.${rng.int(250)}.${rng.int(250)}.${1 + rng.int(250)}` : '127.0.0.1',
    },
  };
}

/** What is wrong with an answer, as [signature, detail] (signature: one per kind of fault and route). */
function problemsOf(c: Case, res: LightMyRequestResponse): [string, string][] {
  const where = `${c.request.method} ${c.route.url}`;
  const detail = `${c.label}\n→ ${res.statusCode} ${res.body.slice(0, 400)}`;
  const out: [string, string][] = [];
  if (res.statusCode >= 500) out.push([`5xx ${res.statusCode} on ${where}`, detail]);
  if (res.body.includes(B_MARK)) out.push([`B's data on ${where}`, detail]);
  if (res.statusCode >= 400 && c.request.method !== 'HEAD') {
    let body: { message?: unknown; error?: unknown; code?: unknown } = {};
    try {
      body = res.json();
    } catch {
      out.push([`error not JSON on ${where}`, detail]);
    }
    const code = String(body.code ?? body.error ?? '');
    if (typeof body.message !== 'string' || /\b(is|not|must|the|should|invalid) /.test(body.message))
      out.push([`error not in French (${res.statusCode} ${code})`, detail]);
    if (c.request.url.startsWith('/api/connector/') && Object.keys(body).sort().join() !== 'error,message')
      out.push([`not the connector's error shape (${res.statusCode} ${code})`, detail]);
  }
  return out;
}

/**
 * The fuzzer's suite for one test file: the requests are shared between `shards` files (each with
 * its own database and seed FUZZ_SEED + shard), so that no file runs much over a minute.
 */
export function fuzzSuite(shard: number, shards: number): void {
  SEED = BASE_SEED + shard;
  RUNS = Math.ceil(TOTAL_RUNS / shards);
  beforeAll(async () => {
    db = await openTestDb();
    // Orders go to a closed port of loopback: refused at once, never to the Internet.
    app = await testApp(db, { automateNetworks: 'loopback' });
    const fuzzA = await addInstallation(db, { syncId: 'FUZZA01' });
    a.id = fuzzA.installation.id;
    a.token = fuzzA.connectorToken;
    await insertRecords(db, a.id, [
      {
        IDInterne: 'A-R1',
        DateHeure: '2025-01-01T10:00:00Z',
        Etat: 0,
        Log: 'log',
        file: { name: 'a.pdf', content: Buffer.from('x') },
      },
      { IDInterne: 'FUZZ-REC-1', DateHeure: '2025-01-02T10:00:00Z' },
    ]);
    await insertTransactions(db, a.id, [{ ID: 'A-T1', DateHeureTrt: '2025-01-01T10:00:00Z' }]);
    const configText = FIXTURE_CONFIG.replace(
      '<Serveur>localhost\\ebp</Serveur>',
      `<Serveur>${B_MARK}</Serveur>`,
    );
    const fuzzB = await addInstallation(db, { syncId: 'FUZZB01', configText });
    bId = fuzzB.installation.id;
    await insertRecords(db, bId, [
      {
        IDInterne: `${B_ID}-R1`,
        Log: B_MARK,
        Enreg: `<SyncNuxiDev><Table>${B_MARK}</Table></SyncNuxiDev>`,
        DateHeure: '2025-01-01T10:00:00Z',
        RefDoc: B_MARK,
        file: { name: `${B_MARK}.pdf`, content: Buffer.from(B_MARK) },
      },
      { IDInterne: 'A-R1', DateHeure: '2025-01-01T10:00:00Z', RefDoc: `${B_MARK}-SAMEID` },
    ]);
    await insertTransactions(db, bId, [
      { ID: `${B_ID}-T1`, DateHeureTrt: '2025-01-01T10:00:00Z', RefDoc: B_MARK, Log: B_MARK },
    ]);
    a.cookie = await signIn(app, 'FUZZA01');
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  describe(`fuzzer (seed ${SEED}, ${RUNS} requests; replay with FUZZ_SEED=${BASE_SEED})`, () => {
    it(
      'no 5xx, French errors, nothing of B, A changed only by accepted requests; the server still answers',
      async () => {
        const rng = prng(SEED);
        const routes = await routesOfTheApp();
        const bodies = new Map<AppRoute, unknown>();
        const context = {
          view: async (path: string) =>
            (await app.inject({ url: path, headers: { cookie: a.cookie } })).json<{
              data: Record<string, unknown>;
            }>().data,
        };
        for (const r of routes) {
          const sample = sampleOf(r);
          if (sample.body) bodies.set(r, await sample.body(context));
        }
        const bBefore = await dataSnapshot(db, bId);
        let digest = await digestA();
        const started = performance.now();
        const statuses: Record<number, number> = {};
        const findings: Record<string, { count: number; first: string }> = {};
        const timeByRoute: Record<string, number> = {};
        for (let i = 0; i < RUNS; i++) {
          const tb = performance.now();
          const c = buildCase(rng, routes, bodies);
          timeByRoute['(build)'] = (timeByRoute['(build)'] ?? 0) + performance.now() - tb;
          const t0 = performance.now();
          const res = await app.inject(c.request);
          const key = `${c.request.method} ${c.route.url}`;
          timeByRoute[key] = (timeByRoute[key] ?? 0) + performance.now() - t0;
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
          const problems = problemsOf(c, res);
          const td = performance.now();
          const now = await digestA();
          timeByRoute['(digest)'] = (timeByRoute['(digest)'] ?? 0) + performance.now() - td;
          if (now !== digest) {
            if (res.statusCode >= 300)
              problems.push([
                `A changed on a ${res.statusCode} (${c.request.method} ${c.route.url})`,
                c.label,
              ]);
            digest = now;
          }
          for (const [signature, detail] of problems) {
            const found = (findings[signature] ??= { count: 0, first: detail });
            found.count += 1;
          }
          // Signed out by a fuzzed logout: sign in again (from an address the fuzzer's logins never use).
          if (c.route.url === '/api/logout' && res.statusCode === 200) {
            const login = await app.inject({
              method: 'POST',
              url: '/api/login',
              payload: { username: 'FUZZA01', password: 'client-secret' },
              remoteAddress: '192.0.2.10',
            });
            a.cookie = `synchro_session=${login.cookies.find((k) => k.name === 'synchro_session')?.value}`;
          }
        }
        const elapsed = performance.now() - started;
        console.log(
          `fuzzer: ${RUNS} requests in ${(elapsed / 1000).toFixed(1)} s (${db.kind}), seed ${SEED}, statuses ${JSON.stringify(statuses)}`,
        );
        if (process.env.FUZZ_PROFILE)
          console.log(
            Object.entries(timeByRoute)
              .sort((x, y) => y[1] - x[1])
              .slice(0, 12)
              .map(([k, v]) => `${k} ${Math.round(v)} ms`)
              .join('\n'),
          );
        expect(findings, `seed ${SEED}: faults found (replay with FUZZ_SEED=${BASE_SEED})`).toEqual({});
        expect(
          Object.keys(statuses).some((s) => Number(s) < 300),
          'some requests were accepted',
        ).toBe(true);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();

        const user = await app.inject({ url: '/api/user', headers: { cookie: a.cookie } });
        expect(user.statusCode, user.body.slice(0, 300)).toBe(200);
        expect(
          (
            await app.inject({
              url: '/api/connector/v1/configuration',
              headers: { authorization: `Bearer ${a.token}` },
            })
          ).statusCode,
        ).toBe(200);
        expect(await dataSnapshot(db, bId)).toEqual(bBefore);
        const stored = await getConfiguration(db, a.id);
        expect(() => parseConfig(stored.text)).not.toThrow();
      },
      30 * 60_000,
    );
  });
}
