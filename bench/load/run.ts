/**
 * A realistic mix against the built server, on the embedded database and on PostgreSQL, with a
 * bare fastify hello-world measured in the same run as the reference.
 *
 *   npm run build
 *   npx tsx bench/load/run.ts [--seconds 60] [--connections 50] [--db both|embedded|postgres]
 *     [--installations 5] [--rows 5000] [--entry MAIN_JS] [--no-readme]
 *
 * Each database is fresh (a temporary DATA_DIR, or a schema of its own in POSTGRES_URL, default
 * postgres://postgres@127.0.0.1:5432/test, dropped at the end). `--installations` installations
 * from the demo configuration, each with `--rows` import records and as many transactions
 * (`seed-history`). autocannon opens `--connections` connections; connection c plays a user of
 * installation c mod N (its own session) and cycles through every screen's GET routes (user,
 * dashboard, server IP, each configuration section, diagnostic, history and trace: first page,
 * errors only, a search, a deep page), a save of its own terminal (c div N: no two connections edit
 * the same terminal, so no 409 is expected) with the If-Match of its last read, and the connector's
 * pushes of 10 import records and 20 transactions (bearer token). Console requests accept br and
 * gzip as browsers do. Counted: requests/s, latency p50/p99, non-2xx by route, errors and timeouts,
 * the server's resident memory at start (signed in, before the load), peak and end (2 s after).
 */
import autocannon, { type Context, type Request, type Result } from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { parseArgs } from 'node:util';
import {
  CONFIG_SECTIONS,
  terminalPayloadOf,
  type TConfigSectionKey,
  type TTerminalView,
} from '@synchro/contracts';
import { describeMachine } from '../config-xml/machine.ts';
import { recordOf, transactionOf } from '../connector/rows.ts';
import {
  admin,
  createInstallation,
  prepareTarget,
  rssMb,
  signIn,
  startServer,
  stopServer,
  writeReadmeSection,
  type TargetName,
} from '../support/server.ts';

/** Every section's view, read as the screens read them; the terminal save of the registry. */
const SECTION_KEYS = Object.keys(CONFIG_SECTIONS) as TConfigSectionKey[];
const TERMINAL_SAVE = CONFIG_SECTIONS.terminals.save!;

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    /** Another build's main.js (a worktree's), to measure a « before » with the same bench. */
    entry: { type: 'string' },
    connections: { type: 'string', default: '50' },
    db: { type: 'string', default: 'both' },
    installations: { type: 'string', default: '5' },
    rows: { type: 'string', default: '5000' },
    port: { type: 'string', default: '5471' },
    'no-readme': { type: 'boolean', default: false },
  },
});
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const INSTALLATIONS = Number(args.installations);
const ROWS = Number(args.rows);
const PORT = Number(args.port);
const CLIENT_ID = 'bench-load-client-secret';
const syncIdOf = (k: number) => `LOADBN${String(k).padStart(2, '0')}`;

interface Installation {
  cookie: string;
  token: string;
  terminals: TTerminalView[];
}

interface RouteCount {
  total: number;
  non2xx: Map<number, number>;
  /** ms from building the request (sent at once: one request in flight per connection) to its answer. */
  latencies: number[];
}

interface Measure {
  name: string;
  result: Result;
  routes: Map<string, RouteCount>;
  /**
   * Before the load; after its first sixth (warm); peak; 2 s after it; and the highest reading in
   * each sixth of the load (a leak keeps climbing to the last sixth; caches fill and level off).
   */
  rss: { start: number; warm: number; peak: number; end: number; bySixth: number[] } | null;
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

function run(options: Parameters<typeof autocannon>[0]): Promise<Result> {
  return new Promise((resolve, reject) =>
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

/** The requests of one connection's cycle. */
function mix(base: string, installations: Installation[], routes: Map<string, RouteCount>): Request[] {
  const conn = (context: Context) => Number(context.conn ?? 0);
  const installationOf = (context: Context) => installations[conn(context) % installations.length]!;
  const count = (route: string) => (status: number, context: Context) => {
    let c = routes.get(route);
    if (!c) routes.set(route, (c = { total: 0, non2xx: new Map(), latencies: [] }));
    c.total += 1;
    c.latencies.push(performance.now() - Number(context.sentAt));
    if (status < 200 || status > 299) c.non2xx.set(status, (c.non2xx.get(status) ?? 0) + 1);
  };
  const sent = (context: Context) => (context.sentAt = performance.now());
  const browser = { 'accept-encoding': 'br, gzip', origin: base };
  const get = (path: string, route = path): Request => ({
    method: 'GET',
    path,
    setupRequest: (req, context) => {
      sent(context);
      return { ...req, headers: { ...req.headers, ...browser, cookie: installationOf(context).cookie } };
    },
    onResponse: (status, _body, context) => count(route)(status, context),
  });
  let pushed = 0;
  const push = (path: string, body: () => unknown): Request => ({
    method: 'POST',
    path,
    setupRequest: (req, context) => {
      sent(context);
      return {
        ...req,
        headers: {
          ...req.headers,
          authorization: `Bearer ${installationOf(context).token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body()),
      };
    },
    onResponse: (status, _body, context) => count(`POST ${path}`)(status, context),
  });
  const page = (n: number) => `page=${n}`;
  const deep = Math.max(2, Math.floor(ROWS / 25 / 2));
  return [
    get('/api/user'),
    get('/api/dashboard'),
    get('/api/server-ip'),
    ...SECTION_KEYS.filter((key) => key !== 'terminals').map((key) => get(CONFIG_SECTIONS[key].getPath)),
    {
      ...get(CONFIG_SECTIONS.terminals.getPath),
      onResponse: (status, _body, context, headers) => {
        count(CONFIG_SECTIONS.terminals.getPath)(status, context);
        context.version = String(headers.etag ?? headers.ETag ?? '');
      },
    },
    {
      method: TERMINAL_SAVE.method,
      path: TERMINAL_SAVE.path,
      setupRequest: (req, context) => {
        sent(context);
        const own = installationOf(context).terminals;
        const t = own[Math.floor(conn(context) / installations.length) % own.length]!;
        // Each save flips the first authorisation: a real new version every time.
        const flip = Number(context.flip ?? 0);
        context.flip = flip + 1;
        const authorizations = t.authorizations.map((a, i) => ({
          ...a,
          Autorise: i === 0 ? (flip % 2 ? 1 : 0) : a.Autorise,
        }));
        return {
          ...req,
          headers: {
            ...req.headers,
            ...browser,
            cookie: installationOf(context).cookie,
            'content-type': 'application/json',
            'if-match': String(context.version ?? ''),
          },
          body: JSON.stringify(terminalPayloadOf(t, { authorizations })),
        };
      },
      onResponse: (status, _body, context) =>
        count(`${TERMINAL_SAVE.method} ${TERMINAL_SAVE.path}`)(status, context),
    },
    get('/api/debug/xml-status'),
    get('/api/sync-history?page=1', '/api/sync-history (first page)'),
    get('/api/sync-history?page=1&errorOnly=true', '/api/sync-history (errors only)'),
    get('/api/sync-history?page=1&search=devis', '/api/sync-history (search)'),
    get(`/api/sync-history?${page(deep)}`, `/api/sync-history (page ${deep})`),
    get('/api/transaction-logs?page=1', '/api/transaction-logs (first page)'),
    get('/api/transaction-logs?page=1&errorOnly=true', '/api/transaction-logs (errors only)'),
    get('/api/transaction-logs?page=1&searchText=DEVIS', '/api/transaction-logs (search)'),
    get(`/api/transaction-logs?${page(deep)}`, `/api/transaction-logs (page ${deep})`),
    push('/api/connector/v1/import-records', () => {
      const from = (pushed += 10);
      return { records: Array.from({ length: 10 }, (_, i) => recordOf(from + i, 'LOADREC')) };
    }),
    push('/api/connector/v1/transactions', () => {
      const from = (pushed += 20);
      return { transactions: Array.from({ length: 20 }, (_, i) => transactionOf(from + i, 'LOADTX')) };
    }),
  ];
}

/** Gives each connection its number (`context.conn`), kept when its cycle starts again. */
function numberConnections(): (client: unknown) => void {
  let next = 0;
  return (client) => {
    const it = (client as { requestIterator: Record<string, unknown> }).requestIterator as {
      initialContext: Context;
      requests: Request[];
      resetContext: () => void;
      setRequests: (requests: Request[]) => void;
    };
    it.initialContext = { conn: next++ };
    it.resetContext();
    it.setRequests(it.requests);
  };
}

async function measureServer(name: TargetName): Promise<Measure> {
  const target = await prepareTarget(name, 'load', { entry: args.entry });
  try {
    const tokens: string[] = [];
    for (let k = 0; k < INSTALLATIONS; k++) {
      tokens.push(createInstallation(target, syncIdOf(k), CLIENT_ID));
      admin(
        target,
        'seed-history',
        '--sync-id',
        syncIdOf(k),
        '--records',
        String(ROWS),
        '--transactions',
        String(ROWS),
      );
    }
    const server = await startServer(target, PORT, [], {}, args.entry ?? undefined);
    try {
      const installations: Installation[] = [];
      for (const [k, token] of tokens.entries()) {
        const cookie = await signIn(server.base, syncIdOf(k), CLIENT_ID);
        const res = await fetch(`${server.base}/api/config/terminals`, { headers: { cookie } });
        const view = (await res.json()) as { data: { terminals: TTerminalView[] } };
        installations.push({ cookie, token, terminals: view.data.terminals });
      }
      const pid = server.process.pid ?? 0;
      const start = rssMb(pid);
      let peak = start;
      let warm = start;
      const bySixth = [0, 0, 0, 0, 0, 0];
      const began = performance.now();
      const sampler = setInterval(() => {
        const now = rssMb(pid);
        peak = Math.max(peak, now);
        const sixth = Math.min(5, Math.floor((6 * (performance.now() - began)) / (SECONDS * 1000)));
        bySixth[sixth] = Math.max(bySixth[sixth] ?? 0, now);
        if (sixth === 0) warm = now;
      }, 1000);
      const routes = new Map<string, RouteCount>();
      process.stdout.write(`[${name}] ${SECONDS} s, ${CONNECTIONS} connections…\n`);
      const result = await run({
        url: server.base,
        connections: CONNECTIONS,
        duration: SECONDS,
        timeout: 30,
        requests: mix(server.base, installations, routes),
        setupClient: numberConnections(),
      });
      clearInterval(sampler);
      await new Promise((r) => setTimeout(r, 2000));
      const end = rssMb(pid);
      peak = Math.max(peak, end);
      return { name, result, routes, rss: { start, warm, peak, end, bySixth } };
    } finally {
      await stopServer(server);
    }
  } finally {
    await target.cleanup();
  }
}

/** A bare fastify hello-world in a process of its own, under the same load. */
async function measureBare(): Promise<Measure> {
  const code = `import Fastify from 'fastify';
const app = Fastify();
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: ${PORT + 1}, host: '127.0.0.1' });
process.stdout.write('ready\\n');`;
  const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: import.meta.dirname,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (c) => reject(new Error(`hello-world exited (${c})`)));
  });
  try {
    const pid = child.pid ?? 0;
    const start = rssMb(pid);
    const routes = new Map<string, RouteCount>();
    process.stdout.write(`[bare fastify] ${SECONDS} s, ${CONNECTIONS} connections…\n`);
    const result = await run({
      url: `http://127.0.0.1:${PORT + 1}/`,
      connections: CONNECTIONS,
      duration: SECONDS,
    });
    const end = rssMb(pid);
    return { name: 'bare', result, routes, rss: { start, warm: end, peak: end, end, bySixth: [] } };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

const LABELS: Record<string, string> = {
  bare: 'bare fastify hello-world (reference)',
  embedded: 'console, embedded database (PGlite)',
  postgres: 'console, PostgreSQL 15 (127.0.0.1)',
};

function section(measures: Measure[], machine: string, loadAtEnd: string): string {
  const bare = measures.find((m) => m.name === 'bare');
  const lines = [
    '## Load: a realistic mix, 50 connections',
    '',
    'Run `npm run build && npx tsx bench/load/run.ts [--seconds 60] [--connections 50] [--db both]`: the built ' +
      `server on a fresh database, ${INSTALLATIONS} installations (demo configuration, ${ROWS} import records and ` +
      `${ROWS} transactions each, \`seed-history\`), ${CONNECTIONS} autocannon connections for ${SECONDS} s, each a ` +
      'user of one installation cycling through every screen’s GET routes (user, dashboard, server IP, the nine ' +
      'configuration views, diagnostic, history and trace: first page, errors only, a search, a deep page), a save of ' +
      'its own terminal with If-Match, and connector pushes of 10 import records and 20 transactions. Console ' +
      'requests accept br/gzip. RSS: the server process, signed in before the load → after the first sixth of it (warm) → peak → 2 s after it, and the highest reading in each sixth of the load (growth that levels off is caches filling; a leak climbs to the last sixth). The bare ' +
      'fastify hello-world runs in the same run, same connections and duration, as the reference.',
    '',
    `Machine: ${machine}, load average at the end ${loadAtEnd}. Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    '',
    '| target | req/s | ÷ bare | p50 ms | p99 ms | requests | non-2xx | errors / timeouts | RSS start → warm → peak → end (MB) | highest RSS by sixth of the load (MB) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const m of measures) {
    const r = m.result;
    const ratio = bare ? (r.requests.average / bare.result.requests.average).toFixed(3) : '';
    const rss = m.rss
      ? [m.rss.start, m.rss.warm, m.rss.peak, m.rss.end].map((v) => v.toFixed(0)).join(' → ')
      : '';
    lines.push(
      `| ${LABELS[m.name] ?? m.name} | ${Math.round(r.requests.average)} | ${ratio} | ${r.latency.p50} | ` +
        `${r.latency.p99} | ${r.requests.total} | ${r.non2xx} | ${r.errors} / ${r.timeouts} | ${rss} | ${m.rss?.bySixth.map((v) => v.toFixed(0)).join(' · ') ?? ''} |`,
    );
  }
  const servers = measures.filter((m) => m.routes.size > 0);
  const routeNames = [...new Set(servers.flatMap((m) => [...m.routes.keys()]))];
  lines.push(
    '',
    'By route (latency from sending to the answer, one request in flight per connection):',
    '',
    `| route | ${servers.map((m) => `${m.name}: answers | p50 ms | p99 ms | non-2xx`).join(' | ')} |`,
    `|---|${servers.map(() => '---:|---:|---:|---|').join('')}`,
  );
  for (const route of routeNames) {
    const cells = servers.map((m) => {
      const c = m.routes.get(route);
      if (!c) return '0 | | | ';
      const non2xx = [...c.non2xx.entries()].map(([status, n]) => `${n}×${status}`).join(', ') || '0';
      const ms = (p: number) => percentile(c.latencies, p).toFixed(0);
      return `${c.total} | ${ms(50)} | ${ms(99)} | ${non2xx}`;
    });
    lines.push(`| ${route} | ${cells.join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

const machine = describeMachine();
const measures: Measure[] = [await measureBare()];
const targets: TargetName[] = args.db === 'both' ? ['embedded', 'postgres'] : [args.db as TargetName];
for (const name of targets) measures.push(await measureServer(name));
const loadAtEnd = os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
const text = section(measures, machine, loadAtEnd);
process.stdout.write(`\n${text}`);
if (!args['no-readme']) writeReadmeSection('bench/load', text);
