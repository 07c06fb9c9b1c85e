import { Writable } from 'node:stream';
import { CONNECTOR_EXAMPLES, CONNECTOR_RATE_LIMITS, connectorOpenApi } from '@synchro/contracts';
import { CONNECTOR_ORDER, parseConfig, readInfo, readLastSync } from '@synchro/config-xml';
import { DEFAULT_RATE_LIMITS } from '../src/features/connector/limits.ts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable, QueryOptions } from '../src/db/types.ts';
import type { TransactionSettings } from '../src/db/transaction-settings.ts';
import { ByteBudget } from '../src/offload/byte-budget.ts';
import { createLifecycle } from '../src/lifecycle.ts';
import { createMetrics, type ServerMetrics } from '../src/metrics/registry.ts';
import { startMetricsServer } from '../src/metrics/server.ts';
import { buildApp } from '../src/app.ts';
import { signIn, TEST_SESSION_SECRET, testApp } from './helpers/app.ts';
import { offContract } from '@synchro/contracts/connector-openapi-check';
import {
  CONNECTOR,
  connectorCall,
  connectorInstallation,
  expectConnectorError,
  importRecord,
  transaction,
} from './helpers/connector.ts';
import { openTestDb } from './helpers/db.ts';
import { appRoutes } from './helpers/route-catalog.ts';
import { getConfiguration } from '../src/domain/configurations.ts';

/**
 * Running the console as a service (issue 19, docs/production.md): health and readiness, one log
 * line per request, the metrics a scripted session moves by the right amounts, the connector
 * API's OpenAPI document against the routes the server registers, its reference page.
 */

let db: Db;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
});

/** The log lines an app writes, parsed. */
function logLines() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

/** The value of one sample of the Prometheus text (0 when absent). */
async function sample(metrics: ServerMetrics, name: string, labels: Record<string, string> = {}) {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const text = await metrics.registry.metrics();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (wanted.every((w) => line.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe('health and readiness', () => {
  it('/healthz and /readyz answer without a session; /readyz says 503 once the server is stopping', async () => {
    const lifecycle = createLifecycle();
    const { lines, stream } = logLines();
    const app = await testApp(db, { lifecycle, logStream: stream });
    try {
      const health = await app.inject({ url: '/healthz' });
      expect([health.statusCode, health.body]).toEqual([200, 'ok\n']);
      const ready = await app.inject({ url: '/readyz' });
      expect([ready.statusCode, ready.body]).toEqual([200, 'prêt\n']);
      expect(ready.headers['cache-control']).toBe('no-store');
      lifecycle.stop();
      const stopping = await app.inject({ url: '/readyz' });
      expect([stopping.statusCode, stopping.body]).toEqual([503, 'arrêt en cours\n']);
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
      // Any other request arriving meanwhile: the API's own 503, to send again after Retry-After.
      const connector = await connectorCall(app, 'GET', '/import-records/queue', 'jeton');
      expect([connector.statusCode, connector.headers['retry-after'], connector.json()]).toEqual([
        503,
        '1',
        { error: 'unavailable', message: 'Le serveur redémarre : réessayez dans quelques instants.' },
      ]);
      expect(offContract('GET', `${CONNECTOR}/import-records/queue`, 503, connector.json())).toBeNull();
      const consoleAnswer = await app.inject({ url: '/api/user' });
      expect([consoleAnswer.statusCode, consoleAnswer.json()]).toEqual([
        503,
        { message: 'Le serveur redémarre : réessayez dans quelques instants.', code: 'SERVER_STOPPING' },
      ]);
      expect(consoleAnswer.headers.connection).toBe('close');
      // Probes are logged at debug level only.
      expect(lines.filter((l) => String(l.url).match(/^\/(healthz|readyz)/))).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('/readyz says 503 when the database does not answer', async () => {
    const broken = { ...db, query: () => Promise.reject(new Error('connexion refusée')) } as Db;
    const app = await testApp(db, {});
    const appOnBroken = await testApp(broken, {});
    try {
      const res = await appOnBroken.inject({ url: '/readyz' });
      expect([res.statusCode, res.body]).toEqual([503, 'base de données injoignable\n']);
    } finally {
      await app.close();
      await appOnBroken.close();
    }
  });
});

describe('the lifecycle hook of long-lived answers (docs/server.md)', () => {
  it('app.close() aborts ctx.lifecycle.signal: a stream that watches it ends itself and the close completes', async () => {
    const lifecycle = createLifecycle();
    const app = await buildApp({ db, sessionSecret: TEST_SESSION_SECRET, lifecycle, logLevel: 'silent' });
    // An event stream written as docs/server.md says: refused once stopping, ended at the signal.
    app.get('/test-stream', (_request, reply) => {
      if (lifecycle.stopping) return reply.status(503).send('arrêt en cours');
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
      reply.raw.write('data: un\n\n');
      const end = () => reply.raw.end('event: fin\ndata: arrêt\n\n');
      lifecycle.signal.addEventListener('abort', end, { once: true });
      reply.raw.on('close', () => lifecycle.signal.removeEventListener('abort', end));
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/test-stream`);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: un\n\n');
    expect(lifecycle.stopping).toBe(false);
    const closed = app.close();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('event: fin\ndata: arrêt\n\n');
    await closed;
    expect(lifecycle.stopping).toBe(true);
  });
});

describe('request log', () => {
  it('one JSON line per request: route template, status, duration, installation, never a secret', async () => {
    const { lines, stream } = logLines();
    const app = await testApp(db, { logStream: stream });
    try {
      const inst = await connectorInstallation(db, 'OPSLOG01');
      const cookie = await signIn(app, 'OPSLOG01');
      lines.length = 0;
      await app.inject({ url: '/api/sync-history?page=1&pageSize=25', headers: { cookie } });
      await connectorCall(app, 'GET', '/import-records/queue?limit=5', inst.token);
      const requests = lines.filter((l) => l.msg === 'requête');
      expect(requests).toHaveLength(2);
      expect(requests[0]).toMatchObject({
        level: 30,
        method: 'GET',
        route: '/api/sync-history',
        url: '/api/sync-history?page=1&pageSize=25',
        status: 200,
        installation: 'OPSLOG01',
      });
      expect(requests[0]?.durationMs).toEqual(expect.any(Number));
      expect(requests[1]).toMatchObject({
        route: `${CONNECTOR}/import-records/queue`,
        status: 200,
        installation: 'OPSLOG01',
      });
      const text = JSON.stringify(lines);
      expect(text).not.toContain(inst.token);
      expect(text).not.toContain(cookie.split('=')[1]);
    } finally {
      await app.close();
    }
  });
});

describe('metrics', () => {
  it('a scripted session moves each counter by the right amount; no secret in any label', async () => {
    const metrics = createMetrics({ db, perInstallation: false, processMetrics: false });
    const app = await testApp(db, { metrics });
    try {
      const inst = await connectorInstallation(db, 'OPSMET01');
      const cookie = await signIn(app, 'OPSMET01');
      for (let k = 0; k < 3; k++) await app.inject({ url: '/api/dashboard', headers: { cookie } });
      const records = [importRecord(), importRecord(), importRecord()];
      await connectorCall(app, 'POST', '/import-records', inst.token, { records });
      // Two already stored, one new.
      await connectorCall(app, 'POST', '/import-records', inst.token, {
        records: [records[0], records[1], importRecord()],
      });
      // Refused for its items: two faults.
      const refused = await connectorCall(app, 'POST', '/import-records', inst.token, {
        records: [importRecord({ Etat: 7 }), importRecord({ DateHeure: 'hier' })],
      });
      expect(refused.statusCode).toBe(400);
      await connectorCall(app, 'POST', '/import-records', null, { records: [] });
      // No automate registered: the order's outcome says so.
      await app.inject({
        method: 'POST',
        url: '/api/sync-automate',
        headers: { cookie },
        payload: { type: 'C' },
      });

      const dash = { route: '/api/dashboard', method: 'GET', status: '200' };
      expect(await sample(metrics, 'synchro_http_request_duration_seconds_count', dash)).toBe(3);
      const rows = (outcome: string) =>
        sample(metrics, 'synchro_connector_rows_total', { kind: 'records', outcome, installation: 'all' });
      expect([await rows('inserted'), await rows('duplicate'), await rows('refused')]).toEqual([4, 2, 2]);
      expect(
        await sample(metrics, 'synchro_connector_rows_total', {
          outcome: 'refused',
          reason: 'invalid-request',
        }),
      ).toBe(2);
      const batches = (outcome: string) =>
        sample(metrics, 'synchro_connector_batches_total', { kind: 'records', outcome });
      expect([
        await batches('accepted'),
        await batches('invalid-request'),
        await batches('unauthorized'),
      ]).toEqual([2, 1, 1]);
      expect(await sample(metrics, 'synchro_sync_orders_total', { outcome: 'no-automate' })).toBe(1);
      const [live] = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM sessions WHERE expires_at > now()',
      );
      expect(await sample(metrics, 'synchro_sessions_live')).toBe(live?.n);
      const [outbox] = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM mail_outbox WHERE state IN ('gathering', 'pending', 'sending')",
      );
      expect(await sample(metrics, 'synchro_mail_outbox_depth')).toBe(outbox?.n);
      const text = await metrics.registry.metrics();
      expect(text).not.toContain('OPSMET01');
      expect(text).not.toContain(inst.token);
      expect(text).not.toContain('client-secret');
    } finally {
      await app.close();
    }
  });

  it('a batch refused past the storage quota counts with its reason; its rows, never read, are not counted', async () => {
    const metrics = createMetrics({ db, perInstallation: false, processMetrics: false });
    const app = await testApp(db, { metrics, fairShare: { storageQuotaBytes: 1024 }, logLevel: 'warn' });
    try {
      const inst = await connectorInstallation(db, 'OPSMET03');
      const log = 'l'.repeat(2000);
      const res = await connectorCall(app, 'POST', '/import-records', inst.token, {
        records: [importRecord({ Log: log }), importRecord({ Log: log }), importRecord({ Log: log })],
      });
      expect(res.statusCode).toBe(507);
      // Refused on its size before its body is read (as 413 and 503 server-busy are).
      expect(await sample(metrics, 'synchro_connector_rows_total', { kind: 'records' })).toBe(0);
      expect(
        await sample(metrics, 'synchro_connector_batches_total', {
          kind: 'records',
          outcome: 'insufficient-storage',
        }),
      ).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('sync ids label the connector and order metrics only with METRICS_PER_INSTALLATION=1', async () => {
    const metrics = createMetrics({ db, perInstallation: true, processMetrics: false });
    const app = await testApp(db, { metrics });
    try {
      const inst = await connectorInstallation(db, 'OPSMET02');
      await connectorCall(app, 'POST', '/import-records', inst.token, { records: [importRecord()] });
      expect(
        await sample(metrics, 'synchro_connector_rows_total', {
          outcome: 'inserted',
          installation: 'OPSMET02',
        }),
      ).toBe(1);
    } finally {
      await app.close();
    }
  });

  it('are served on a port of their own (METRICS_PORT), /metrics only', async () => {
    const metrics = createMetrics({ db, perInstallation: false, processMetrics: true });
    const server = await startMetricsServer(metrics.registry, 0, '127.0.0.1');
    try {
      const port = (server.address() as { port: number }).port;
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const text = await res.text();
      expect(text).toContain('nodejs_eventloop_lag_p99_seconds');
      expect(text).toContain('process_resident_memory_bytes');
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('the public app has no /metrics', async () => {
    const app = await testApp(db, {});
    try {
      expect((await app.inject({ url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});

/**
 * `db` whose transactions fail the next statement matching a pattern as PostgreSQL fails one of
 * two transactions waiting on each other (deadlock, SQLSTATE 40P01): what a batch meets when
 * another batch with the same ids is written at the very same moment, made reliable.
 */
function stoppedStatements(db: Db) {
  let pattern: RegExp | null = null;
  let stopped = 0;
  const failing = (tx: Queryable): Queryable => ({
    query: <T>(sql: string, params?: readonly unknown[], options?: QueryOptions) => {
      if (pattern?.test(sql)) {
        pattern = null;
        stopped += 1;
        return Promise.reject(Object.assign(new Error('deadlock detected'), { code: '40P01' }));
      }
      return tx.query<T>(sql, params, options);
    },
    exec: (sql) => tx.exec(sql),
  });
  const wrapped = new Proxy(db, {
    get(target, prop) {
      if (prop === 'transaction')
        return <R>(fn: (tx: Queryable) => Promise<R>, settings?: TransactionSettings) =>
          target.transaction((tx) => fn(failing(tx)), settings);
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    db: wrapped,
    stopNext(statement: RegExp) {
      pattern = statement;
    },
    get stopped() {
      return stopped;
    },
  };
}

/**
 * Connector calls whose answers are checked against the OpenAPI document: `problems` lists each
 * answer off the document (a status it does not list, a body off its schema), `answered` the
 * operations that answered without an error.
 */
function checkedCalls(app: FastifyInstance) {
  const answered = new Set<string>();
  const problems: string[] = [];
  const call = async (
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    token: string | null,
    ...rest: unknown[]
  ) => {
    const res = await connectorCall(
      app,
      method,
      path,
      token,
      ...(rest as [unknown?, Record<string, string>?]),
    );
    const pathname = `${CONNECTOR}${path.split('?')[0]}`;
    const json = String(res.headers['content-type']).startsWith('application/json');
    const why = offContract(method, pathname, res.statusCode, json ? res.json() : res.body);
    if (why) problems.push(why);
    if (res.statusCode < 400)
      answered.add(
        `${method} ${pathname.replace(/\/import-records\/[^/]+\/result$/, '/import-records/{IDInterne}/result')}`,
      );
    return res;
  };
  return { call, answered, problems };
}

describe('the connector API as OpenAPI', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp(db, {});
  });
  afterAll(async () => {
    await app.close();
  });

  it('documents exactly the routes the server registers under /api/connector/v1', async () => {
    const res = await app.inject({ url: `${CONNECTOR}/openapi.json` });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, Record<string, unknown>> }>();
    expect(doc).toEqual(JSON.parse(JSON.stringify(connectorOpenApi())));
    const documented = Object.entries(doc.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    const registered = appRoutes(app)
      .filter((r) => r.url.startsWith(CONNECTOR) && r.url !== `${CONNECTOR}/openapi.json`)
      .map((r) => `${r.method} ${r.url.replace(/:([A-Za-z]+)/g, '{$1}')}`)
      .sort();
    expect(documented).toEqual(registered);
  });

  it('the server’s real answers, successes and errors, follow the document', async () => {
    const limited = await testApp(db, { connectorRateLimits: { 'import-queue': 2 }, logLevel: 'warn' });
    try {
      const inst = await connectorInstallation(db, 'OPSAPI01');
      const { call, answered, problems } = checkedCalls(limited);
      const automate = await call('POST', '/automate', inst.token, {
        port: 8080,
        version: '4.2.1',
        machineName: 'SRV',
      });
      expect([200, 400]).toContain(automate.statusCode);
      const read = await call('GET', '/configuration', inst.token);
      expect(read.statusCode).toBe(200);
      const etag = String(read.headers.etag);
      expect(
        (await call('GET', '/configuration', inst.token, undefined, { 'if-none-match': etag })).statusCode,
      ).toBe(304);
      expect(
        (await call('PATCH', '/configuration', inst.token, { DerSynchro: { NbEnreg: '5' } })).statusCode,
      ).toBe(200);
      expect((await call('PATCH', '/configuration', inst.token, { DerSynchro: 'texte' })).statusCode).toBe(
        400,
      );
      const record = importRecord();
      expect((await call('POST', '/import-records', inst.token, { records: [record] })).statusCode).toBe(200);
      expect(
        (await call('POST', '/import-records', inst.token, { records: [importRecord({ Etat: 7 })] }))
          .statusCode,
      ).toBe(400);
      expect((await call('POST', '/import-records', null, { records: [] })).statusCode).toBe(401);
      expect((await call('GET', '/import-records/queue?limit=5', inst.token)).statusCode).toBe(200);
      expect((await call('GET', '/import-records/queue?limit=0', inst.token)).statusCode).toBe(400);
      expect((await call('GET', '/import-records/queue', inst.token)).statusCode).toBe(429);
      const id = String(record.IDInterne);
      expect(
        (await call('POST', `/import-records/${id}/result`, inst.token, { Etat: 1, Log: 'Importé' }))
          .statusCode,
      ).toBe(200);
      expect((await call('POST', '/import-records/INCONNU/result', inst.token, { Etat: 1 })).statusCode).toBe(
        404,
      );
      const tooLong = `/import-records/${'x'.repeat(101)}/result`;
      expect((await call('POST', tooLong, inst.token, { Etat: 1 })).statusCode).toBe(404);
      expect(
        (await call('POST', '/transactions', inst.token, { transactions: [transaction()] })).statusCode,
      ).toBe(200);
      expect(
        (await call('POST', '/transactions', inst.token, 'texte', { 'content-type': 'text/plain' }))
          .statusCode,
      ).toBe(415);
      expect((await call('GET', '/drive/access-token', inst.token)).statusCode).toBe(404);
      expect(problems).toEqual([]);
      // Every documented operation answered at least once without an error (but the automate's,
      // whose address this machine may refuse).
      const documented = Object.entries(connectorOpenApi().paths as Record<string, object>).flatMap(
        ([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
      );
      const expected = documented.filter(
        (op) => !op.endsWith('/automate') && !op.endsWith('/drive/access-token'),
      );
      expect(expected.filter((op) => !answered.has(op))).toEqual([]);
    } finally {
      await limited.close();
    }
  });

  it('the rarer refusals follow it too: 409 of a stopped batch and of the drive, 503 server-busy, 507', async () => {
    const faults = stoppedStatements(db);
    // A share of 1 Ko per installation: held whole below, any body is then refused.
    const bodies = new ByteBudget({ perInstallation: 1024, total: 1024 * 1024 });
    const app = await testApp(faults.db, { bodies, logLevel: 'warn' });
    try {
      const inst = await connectorInstallation(db, 'OPSAPI02');
      const { call, problems } = checkedCalls(app);
      // PostgreSQL stops one of two batches sharing ids (deadlock): 409, nothing written.
      faults.stopNext(/INSERT INTO import_records/);
      const records = await call('POST', '/import-records', inst.token, { records: [importRecord()] });
      expect(expectConnectorError(records, 409, 'conflict')).toContain('renvoyez-le');
      faults.stopNext(/INSERT INTO transaction_logs/);
      const transactions = await call('POST', '/transactions', inst.token, { transactions: [transaction()] });
      expect(expectConnectorError(transactions, 409, 'conflict')).toContain('renvoyez-le');
      expect(faults.stopped).toBe(2);
      // A drive link the provider no longer honours.
      await db.query(
        `INSERT INTO drive_links (installation_id, provider, refresh_token, state, connected_at)
         VALUES ($1, 'google', decode('00', 'hex'), 'revoked', now())`,
        [inst.id],
      );
      expectConnectorError(await call('GET', '/drive/access-token', inst.token), 409, 'conflict');
      // The installation's share of the memory budget is held: every body waits (503 server-busy).
      const release = bodies.take(inst.id, 1024);
      expect(release).not.toBeNull();
      try {
        const busy = [
          await call('POST', '/automate', inst.token, { port: 8080 }),
          await call('PATCH', '/configuration', inst.token, { DerSynchro: { NbEnreg: '5' } }),
          await call('POST', '/import-records', inst.token, { records: [importRecord()] }),
          await call('POST', '/import-records/INCONNU/result', inst.token, { Etat: 1 }),
          await call('POST', '/transactions', inst.token, { transactions: [transaction()] }),
        ];
        for (const res of busy) expectConnectorError(res, 503, 'server-busy');
      } finally {
        release?.();
      }
      // A storage quota of 1 byte: every write of records or transactions is refused (507).
      await db.query('UPDATE installations SET storage_quota_bytes = 1 WHERE id = $1', [inst.id]);
      const full = [
        await call('POST', '/import-records', inst.token, { records: [importRecord()] }),
        await call('POST', '/import-records/INCONNU/result', inst.token, { Etat: 1 }),
        await call('POST', '/transactions', inst.token, { transactions: [transaction()] }),
      ];
      for (const res of full) expectConnectorError(res, 507, 'insufficient-storage');
      expect(problems).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('GET /configuration never reads the text it gives, PATCH has no storage quota: only their possible statuses', async () => {
    const app = await testApp(db, { logLevel: 'warn' });
    try {
      const inst = await connectorInstallation(db, 'OPSAPI03');
      const { call, problems } = checkedCalls(app);
      // Past its storage quota, the installation's connector still writes its parts (no 507).
      await db.query('UPDATE installations SET storage_quota_bytes = 1 WHERE id = $1', [inst.id]);
      const patched = await call('PATCH', '/configuration', inst.token, { DerSynchro: { NbEnreg: '7' } });
      expect(patched.statusCode, patched.body).toBe(200);
      // An unreadable stored text: GET gives it as it is (no 422), PATCH cannot splice into it (422).
      await db.query(
        `UPDATE configurations SET text = '<Connexion><Info>', text_id = NULL WHERE installation_id = $1`,
        [inst.id],
      );
      const read = await call('GET', '/configuration', inst.token);
      expect([read.statusCode, read.body]).toEqual([200, '<Connexion><Info>']);
      const refused = await call('PATCH', '/configuration', inst.token, { DerSynchro: { NbEnreg: '8' } });
      expectConnectorError(refused, 422, 'unreadable-configuration');
      expect(problems).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('its examples are requests the server accepts, and the answers it gives them', async () => {
    const ex = CONNECTOR_EXAMPLES;
    const now = new Date(ex.AutomateReportAnswer.registeredAt);
    const app = await testApp(db, { now: () => now, logLevel: 'warn' });
    try {
      const inst = await connectorInstallation(db, 'OPSAPI04');
      const { call, problems } = checkedCalls(app);
      // The example's address is one the server's default policy accepts (no documentation range).
      const automate = await call('POST', '/automate', inst.token, ex.AutomateReport);
      expect([automate.statusCode, automate.json()]).toEqual([200, ex.AutomateReportAnswer]);

      const patched = await call('PATCH', '/configuration', inst.token, ex.ConfigurationPatch);
      expect(patched.statusCode, patched.body).toBe(200);
      const { version } = patched.json<{ version: number }>();
      // Written under the connector's own element names: the console reads them back.
      const stored = await getConfiguration(db, inst.id);
      const written = parseConfig(stored.text);
      expect(readInfo(written)).toMatchObject({
        connectorVersion: '6.19.4',
        automateLabel: 'Version : 6.11.23.9',
      });
      expect(readLastSync(written)).toMatchObject({
        dateHeure: '20251114080952542',
        type: 'Complète',
        duration: '00:04:11',
        records: 1838,
      });
      for (const section of ['Info', 'DerSynchro'] as const)
        for (const name of Object.keys(ex.ConfigurationPatch[section]))
          expect(CONNECTOR_ORDER[section] as readonly string[], `${section}.${name}`).toContain(name);
      // The history's author, as the operation's description says.
      const [history] = await db.query<{ author: string }>(
        'SELECT author FROM configuration_versions WHERE installation_id = $1 AND version = $2',
        [inst.id, version],
      );
      const patchOp = (connectorOpenApi().paths as Record<string, Record<string, { description: string }>>)[
        `${CONNECTOR}/configuration`
      ]?.patch;
      expect(patchOp?.description).toContain(`author \`${history?.author}\``);

      const records = await call('POST', '/import-records', inst.token, ex.ImportRecordsRequest);
      expect([records.statusCode, records.json()]).toEqual([200, ex.BatchAnswer]);
      // The queue gives the example's record back as the example says (times to the millisecond).
      const queue = await call('GET', '/import-records/queue', inst.token);
      expect([queue.statusCode, queue.json()]).toEqual([200, ex.ImportQueueAnswer]);
      const id = ex.ImportRecordsRequest.records[0]?.IDInterne ?? '';
      const result = await call('POST', `/import-records/${id}/result`, inst.token, ex.ImportResult);
      expect([result.statusCode, result.json()]).toEqual([200, ex.ImportResultAnswer]);
      const transactions = await call('POST', '/transactions', inst.token, ex.TransactionsRequest);
      expect([transactions.statusCode, transactions.json()]).toEqual([200, ex.BatchAnswer]);
      expect(problems).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('documents the rate limits the server applies', () => {
    expect(CONNECTOR_RATE_LIMITS).toEqual(DEFAULT_RATE_LIMITS);
  });

  it('has a reference page served from this server (no CDN)', async () => {
    const page = await app.inject({ url: '/docs/connector' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(source).toMatch(/^\/docs\/connector\//);
      const asset = await app.inject({ url: source as string });
      expect(asset.statusCode, source).toBe(200);
    }
  });
});
