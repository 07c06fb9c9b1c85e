/**
 * One installation under attack through the connector API, another one using its console: does
 * the first slow, break or starve the second? (Issue « No installation can stall, exhaust or spy
 * on the console for the others », docs/server.md « Partage équitable ».)
 *
 *   npm run build -w @synchro/server
 *   npx tsx bench/noisy-neighbour/run.ts [--db both|embedded|postgres] [--seconds 60]
 *     [--quiet-seconds 30] [--attack records|config] [--entry MAIN_JS] [--json FILE] [--no-readme]
 *
 * The built server runs as a process of its own on a fresh database (bench/support/server.ts).
 * B's console session asks for /api/dashboard and for the first page of its import history, each
 * 10 times a second (20 requests a second), first alone (« quiet »), then while installation A
 * sends, through the real connector API, for `--seconds`:
 *   - a loop of adversarial records, one per request: 100 000 attributes (1.1 MB), 200 000
 *     attributes (2.3 MB), 10 MB of short elements, nesting at the depth limit;
 *   - three loops of 80 MB batches (500 records of 160 KB: text fields and an incompressible
 *     photo), in parallel.
 * A honours Retry-After of a 503 for at most a second (an impatient connector). Measured: B's
 * latencies and errors, the server's event-loop delay (its own report, every 5 s), its resident
 * memory every second, A's answers by status, and afterwards that every 80 MB batch is stored
 * whole or not at all. Then the 100 000-attribute record alone (refused: over the limit of
 * attributes), and one at the limit (10 000) with its view in the console.
 *
 * `--attack config`: A has a 20 MB configuration and loops on its big writes instead (two console
 * sessions saving 100 000 excluded families, the diagnostic of the stored text, the connector's
 * PATCH of the configuration: attack-config.ts); afterwards, that its stored configuration reads
 * whole. Its figures are kept by hand in bench/README.md (« Big configuration writes »): this mode
 * writes nothing there. `--entry`: another build's `apps/server/dist/main.js` (a « before »: its
 * own admin command makes the database). `--json`: the run's figures as JSON as well.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine } from '../config-xml/machine.ts';
import {
  createInstallation,
  prepareTarget,
  REPO,
  rssMb,
  signIn,
  startServer,
  stopServer,
  writeReadmeSection,
  type Server,
  type TargetName,
} from '../support/server.ts';
import { attributes, nextId, postConnector, recordJson, tally, type Tally } from './attack.ts';
import { bigConfiguration, EXCLUDED_FAMILIES } from './attack-config.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    seconds: { type: 'string', default: '60' },
    'quiet-seconds': { type: 'string', default: '30' },
    'no-readme': { type: 'boolean', default: false },
    /** `records` (the connector's records and batches) or `config` (big configuration writes). */
    attack: { type: 'string', default: 'records' },
    /** Another build's `apps/server/dist/main.js` (a « before »). */
    entry: { type: 'string' },
    /** A file for the run's figures as JSON. */
    json: { type: 'string' },
    /** A folder: the server writes its CPU profile there (node --cpu-prof), to see what blocks. */
    'cpu-prof': { type: 'string' },
  },
});
const ATTACK_SECONDS = Number(args.seconds);
const QUIET_SECONDS = Number(args['quiet-seconds']);
const MODE = args.attack === 'config' ? 'config' : 'records';
if (args.attack !== MODE) throw new Error(`--attack records|config, not ${args.attack}`);
const CONNECTOR = '/api/connector/v1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A's attack in a process of its own (attacker.ts); its tally once it is over. */
function attackFromAnotherProcess(
  base: string,
  token: string,
  seconds: number,
  cookies: string[],
): Promise<Tally> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'attacker.ts')], {
    env: {
      ...process.env,
      ATTACK_BASE: base,
      ATTACK_TOKEN: token,
      ATTACK_SECONDS: String(seconds),
      ATTACK_MODE: MODE,
      ATTACK_COOKIES: cookies.join('\n'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`the attacker stopped (${code})`));
      const parsed = JSON.parse(out) as Omit<Tally, 'byStatus'> & { byStatus: [string, number][] };
      resolve({ ...parsed, byStatus: new Map(parsed.byStatus) });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// What B does

interface Latencies {
  ms: number[];
  errors: string[];
}

async function consoleLoad(base: string, cookie: string, seconds: number): Promise<Latencies> {
  const out: Latencies = { ms: [], errors: [] };
  const paths = ['/api/dashboard', '/api/sync-history?page=1&pageSize=25'];
  const until = Date.now() + seconds * 1000;
  const inFlight: Promise<void>[] = [];
  // 20 requests a second, every 50 ms, alternating the two paths; each on its own (not waiting
  // for the previous one), as a browser's screens would.
  for (let k = 0; Date.now() < until; k += 1) {
    const path = paths[k % 2] as string;
    const started = performance.now();
    inFlight.push(
      fetch(`${base}${path}`, { headers: { cookie } })
        .then(async (res) => {
          await res.arrayBuffer();
          out.ms.push(performance.now() - started);
          if (!res.ok) out.errors.push(`${res.status} ${path}`);
        })
        .catch((err: unknown) => {
          out.errors.push(`${path}: ${(err as Error).message}`);
        }),
    );
    await sleep(Math.max(0, 50 - (performance.now() - started)));
  }
  await Promise.all(inFlight);
  return out;
}

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(n >= 100 ? 0 : 1) : '—');

// ---------------------------------------------------------------------------------------------
// The server's own reports

interface LoopReport {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** The server's event-loop reports, its last other log lines, and how it ended if it did. */
function watchLogs(server: Server): { reports: LoopReport[]; tail: string[]; ended: string | null } {
  const logs = { reports: [] as LoopReport[], tail: [] as string[], ended: null as string | null };
  const { reports, tail } = logs;
  server.process.once('exit', (code, signal) => (logs.ended = `code ${code}, signal ${signal}`));
  let partial = '';
  server.process.stdout?.on('data', (chunk: Buffer) => {
    partial += chunk.toString('utf8');
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('eventLoopDelay')) {
        tail.push(line.slice(0, 2000));
        if (tail.length > 40) tail.shift();
        continue;
      }
      try {
        reports.push((JSON.parse(line) as { eventLoopDelay: LoopReport }).eventLoopDelay);
      } catch {
        // not a JSON line
      }
    }
  });
  return logs;
}

/** Throws, with how the server ended and its last log lines, when it is no longer running. */
function checkRunning(logs: ReturnType<typeof watchLogs>, when: string): void {
  if (logs.ended === null) return;
  process.stderr.write(`${logs.tail.join('\n')}\n`);
  throw new Error(`the server stopped ${when} (${logs.ended}); its last log lines above`);
}

function sampleRss(pid: number): { stop: () => number[] } {
  const samples: number[] = [];
  const timer = setInterval(() => {
    try {
      samples.push(rssMb(pid));
    } catch {
      clearInterval(timer); // the process is gone: checkRunning says so
    }
  }, 1000);
  return {
    stop: () => {
      clearInterval(timer);
      return samples;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Checks after the run

/** Rows of A's history whose reference holds `search` (the list's search, counted up to 1 000). */
async function historyCount(base: string, cookie: string, search: string): Promise<number> {
  const res = await fetch(
    `${base}/api/sync-history?page=1&pageSize=25&search=${encodeURIComponent(search)}`,
    {
      headers: { cookie },
    },
  );
  const body = (await res.json()) as { total: number };
  return body.total;
}

interface RunResult {
  target: TargetName;
  /** Load average (1 min) at the start of this database's run and at its end. */
  load: [number, number];
  quiet: Latencies;
  attacked: Latencies;
  loop: LoopReport[];
  rss: number[];
  a: Tally;
  /** `--attack records`: the checks after the batches. */
  records: RecordChecks | null;
  /** `--attack config`: A's stored configuration afterwards. */
  config: ConfigCheck | null;
}

interface RecordChecks {
  halfStored: string[];
  acceptedBatches: number;
  single: SingleRecord;
  atLimit: SingleRecord;
}

interface ConfigCheck {
  /** Bytes of A's configuration at the start. */
  bytes: number;
  /** GET /api/config/exclusions afterwards: status, version, families. */
  status: number;
  version: number;
  families: number;
  /** GET /api/debug/xml-status afterwards, alone: status, ms. */
  diagnosticStatus: number;
  diagnosticMs: number;
}

/** A's configuration as a file for create-installation (made once per run of the script). */
let bigConfigFile: { file: string; bytes: number } | null = null;
function bigConfigurationFile(): { file: string; bytes: number } {
  if (bigConfigFile) return bigConfigFile;
  const text = bigConfiguration(
    readFileSync(join(REPO, 'apps/server/demo/connexion-ebp-gescom.xml'), 'utf8'),
  );
  const file = join(mkdtempSync(join(tmpdir(), 'synchro-bench-noisy-config-')), 'big.xml');
  writeFileSync(file, text);
  process.on('exit', () => rmSync(join(file, '..'), { recursive: true, force: true }));
  bigConfigFile = { file, bytes: Buffer.byteLength(text) };
  return bigConfigFile;
}

/** A's stored configuration after the attack: whole, and its diagnostic alone. */
async function checkConfiguration(base: string, cookie: string, bytes: number): Promise<ConfigCheck> {
  const res = await fetch(`${base}/api/config/exclusions`, { headers: { cookie } });
  const body = res.ok ? ((await res.json()) as { version: number; data: { exclusions: unknown[] } }) : null;
  const started = performance.now();
  const diagnostic = await fetch(`${base}/api/debug/xml-status`, { headers: { cookie } });
  await diagnostic.arrayBuffer();
  return {
    bytes,
    status: res.status,
    version: body?.version ?? NaN,
    families: body?.data.exclusions.length ?? NaN,
    diagnosticStatus: diagnostic.status,
    diagnosticMs: performance.now() - started,
  };
}

interface SingleRecord {
  postMs: number;
  status: number;
  message: string;
  viewMs: number;
  viewStatus: number;
}

/** One record of `count` attributes sent alone, then its XML read in the console. */
async function postAndView(
  base: string,
  token: string,
  cookie: string,
  count: number,
): Promise<SingleRecord> {
  const id = nextId('ONE');
  const body = Buffer.from(`{"records":[${recordJson(id, attributes(count))}]}`);
  let started = performance.now();
  const post = await fetch(`${base}${CONNECTOR}/import-records`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  const answer = await post.text();
  const postMs = performance.now() - started;
  started = performance.now();
  const view = await fetch(`${base}/api/sync-history/${encodeURIComponent(id)}/xml`, { headers: { cookie } });
  await view.arrayBuffer();
  const viewMs = performance.now() - started;
  const message = post.ok
    ? ''
    : ((JSON.parse(answer) as { message?: string }).message ?? answer.slice(0, 200));
  return { postMs, status: post.status, message, viewMs, viewStatus: view.status };
}

async function runOn(name: TargetName, port: number): Promise<RunResult> {
  const target = await prepareTarget(name, 'noisy', { entry: args.entry });
  let server: Server | null = null;
  const loadAtStart = loadavg()[0] ?? NaN;
  try {
    const big = MODE === 'config' ? bigConfigurationFile() : null;
    const tokenA = createInstallation(target, 'NOISYA01', 'bench-client-id-noisy-a', big?.file);
    const tokenB = createInstallation(target, 'QUIETB01', 'bench-client-id-quiet-b');
    const nodeArgs = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [];
    server = await startServer(
      target,
      port,
      nodeArgs,
      { env: { LOG_LEVEL: 'info', LOOP_DELAY_REPORT_SECONDS: '5' }, stdout: 'pipe' },
      args.entry,
    );
    const logs = watchLogs(server);
    const base = server.base;
    // B's history: 2 000 records through its own connector.
    const seed = tally();
    for (let k = 0; k < 4; k += 1) {
      const records = Array.from({ length: 500 }, () =>
        recordJson(nextId('B'), '<SyncNuxiDev><A>1</A></SyncNuxiDev>'),
      );
      await postConnector(
        base,
        tokenB,
        '/import-records',
        Buffer.from(`{"records":[${records.join(',')}]}`),
        seed,
      );
    }
    const cookieB = await signIn(base, 'QUIETB01', 'bench-client-id-quiet-b');
    const cookieA = await signIn(base, 'NOISYA01', 'bench-client-id-noisy-a');
    // `--attack config`: A's second console session (another browser).
    const cookiesA =
      MODE === 'config' ? [cookieA, await signIn(base, 'NOISYA01', 'bench-client-id-noisy-a')] : [];

    process.stderr.write(`${name}: B alone for ${QUIET_SECONDS} s\n`);
    const quiet = await consoleLoad(base, cookieB, QUIET_SECONDS);

    process.stderr.write(`${name}: B while A attacks for ${ATTACK_SECONDS} s\n`);
    const loopBefore = logs.reports.length;
    const rss = sampleRss(server.process.pid as number);
    const [attacked, a] = await Promise.all([
      consoleLoad(base, cookieB, ATTACK_SECONDS),
      attackFromAnotherProcess(base, tokenA, ATTACK_SECONDS, cookiesA),
    ]);
    const rssSamples = rss.stop();
    checkRunning(logs, 'during the attack');
    await sleep(6000); // the last event-loop report of the attack
    const loop = logs.reports.slice(loopBefore);
    const common = { target: name, quiet, attacked, loop, rss: rssSamples, a };
    if (big) {
      const config = await checkConfiguration(base, cookieA, big.bytes);
      return { ...common, load: [loadAtStart, loadavg()[0] ?? NaN], records: null, config };
    }

    // Every 80 MB batch whole or not at all: its first and last records both there, or neither.
    const halfStored: string[] = [];
    for (const batch of a.batches) {
      const first = await historyCount(base, cookieA, `XX_${batch.ids[0] as string}`);
      const last = await historyCount(base, cookieA, `XX_${batch.ids[batch.ids.length - 1] as string}`);
      if (first !== last || (batch.accepted && first !== 1))
        halfStored.push(`${batch.ids[0]}: ${first}/${last}`);
    }

    // The 100 000-attribute record alone, then its view in A's console; then one at the limit of
    // attributes (10 000: packages/config-xml MAX_ATTRIBUTES), stored, and its view.
    const single = await postAndView(base, tokenA, cookieA, 100_000);
    const atLimit = await postAndView(base, tokenA, cookieA, 10_000);

    return {
      ...common,
      load: [loadAtStart, loadavg()[0] ?? NaN],
      records: { halfStored, acceptedBatches: a.batches.filter((b) => b.accepted).length, single, atLimit },
      config: null,
    };
  } finally {
    if (server) await stopServer(server);
    await target.cleanup();
  }
}

// ---------------------------------------------------------------------------------------------
// The report

function latencyRow(label: string, l: Latencies): string {
  return `| ${label} | ${l.ms.length} | ${l.errors.length} | ${f1(percentile(l.ms, 50))} | ${f1(percentile(l.ms, 95))} | ${f1(percentile(l.ms, 99))} | ${f1(Math.max(...l.ms))} |`;
}

function report(results: RunResult[], machine: string): string {
  if (MODE === 'config') return reportConfig(results, machine);
  const lines = [
    '## Noisy neighbour: one installation attacks, another uses its console',
    '',
    'Run `npm run build -w @synchro/server && npx tsx bench/noisy-neighbour/run.ts` (the built server as its own process, a fresh database; ' +
      `B alone for ${QUIET_SECONDS} s, then B while A attacks for ${ATTACK_SECONDS} s: what the script's header says).`,
    `Machine: ${machine}. Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    '',
    '| database | B | requests | errors | p50 ms | p95 ms | p99 ms | max ms |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of results) {
    const name = r.target === 'embedded' ? 'embedded (PGlite)' : 'PostgreSQL';
    lines.push(latencyRow(`${name} | alone`, r.quiet).replace(/^\| /, '| '));
    lines.push(latencyRow(`${name} | A attacking`, r.attacked));
  }
  lines.push('');
  lines.push(
    '| database | event loop p99 ms (worst 5 s) | event loop max ms | server RSS max MB | A: answers by status | A: 80 MB batches accepted / sent | stored half | 100 000 attributes: POST ms (status) | 10 000 attributes (the limit): POST ms (status) | its view ms (status) |',
  );
  lines.push('|---|---:|---:|---:|---|---:|---|---:|---:|---:|');
  for (const r of results) {
    const name = r.target === 'embedded' ? 'embedded (PGlite)' : 'PostgreSQL';
    const statuses = statusesOf(r.a);
    const { acceptedBatches, halfStored, single, atLimit } = r.records as RecordChecks;
    lines.push(
      `| ${name} | ${f1(Math.max(...r.loop.map((l) => l.p99Ms)))} | ${f1(Math.max(...r.loop.map((l) => l.maxMs)))} | ` +
        `${f1(Math.max(...r.rss))} | ${statuses} | ${acceptedBatches} / ${r.a.batches.length} | ` +
        `${halfStored.length === 0 ? 'none' : halfStored.join('; ')} | ${f1(single.postMs)} (${single.status}) | ` +
        `${f1(atLimit.postMs)} (${atLimit.status}) | ${f1(atLimit.viewMs)} (${atLimit.viewStatus}) |`,
    );
  }
  lines.push('');
  for (const r of results) {
    const name = r.target === 'embedded' ? 'embedded' : 'PostgreSQL';
    const { halfStored, single, atLimit } = r.records as RecordChecks;
    const p99 = percentile(r.attacked.ms, 99);
    const max = Math.max(...r.attacked.ms);
    const goalP99 = r.target === 'embedded' ? 250 : 100;
    const loopP99 = Math.max(...r.loop.map((l) => l.p99Ms));
    const checks = [
      `B errors 0: ${r.attacked.errors.length === 0 ? 'met' : `NOT met (${r.attacked.errors.slice(0, 3).join(', ')})`}`,
      `B p99 ≤ ${goalP99} ms: ${f1(p99)} → ${p99 <= goalP99 ? 'met' : 'NOT met'}`,
      `B max ≤ 1 s: ${f1(max)} → ${max <= 1000 ? 'met' : 'NOT met'}`,
      `event loop p99 ≤ 50 ms: ${f1(loopP99)} → ${loopP99 <= 50 ? 'met' : 'NOT met'}`,
      `RSS ≤ 1 536 MB every second: ${f1(Math.max(...r.rss))} → ${Math.max(...r.rss) <= 1536 ? 'met' : 'NOT met'}`,
      `A answered 2xx, 503 or 507 in French: ${r.a.wrong.length === 0 ? 'met' : `NOT met (${r.a.wrong.slice(0, 2).join('; ')})`}`,
      `nothing stored half: ${halfStored.length === 0 ? 'met' : 'NOT met'}`,
      `100 000 attributes answered ≤ 500 ms (stored, or refused naming the limit): ${f1(single.postMs)} ms, ${single.status}${single.message ? ` « ${single.message} »` : ''} → ${single.postMs <= 500 && (single.status === 200 || ([400, 422].includes(single.status) && /attributs/.test(single.message))) ? 'met' : 'NOT met'}`,
      `10 000 attributes stored and shown ≤ 500 ms each: ${f1(atLimit.postMs)} / ${f1(atLimit.viewMs)} → ${atLimit.status === 200 && atLimit.viewStatus === 200 && atLimit.postMs <= 500 && atLimit.viewMs <= 500 ? 'met' : 'NOT met'}`,
    ];
    lines.push(`- ${name}: ${checks.join('; ')}.`);
  }
  return lines.join('\n');
}

const statusesOf = (a: Tally) =>
  [...a.byStatus.entries()]
    .sort()
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');

/** `--attack config`: B's latencies, the server's, A's answers and its configuration afterwards. */
function reportConfig(results: RunResult[], machine: string): string {
  const lines = [
    `Big configuration writes (\`--attack config\`, ${args.entry ?? 'this build'}): B alone for ${QUIET_SECONDS} s, then B while A writes its configuration for ${ATTACK_SECONDS} s.`,
    `Machine: ${machine}. Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    '',
    '| database | B | requests | errors | p50 ms | p95 ms | p99 ms | max ms |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  const nameOf = (r: RunResult) => (r.target === 'embedded' ? 'embedded (PGlite)' : 'PostgreSQL');
  for (const r of results) {
    lines.push(latencyRow(`${nameOf(r)} | alone`, r.quiet));
    lines.push(latencyRow(`${nameOf(r)} | A writing`, r.attacked));
  }
  lines.push('');
  lines.push(
    '| database | load at start → end | event loop p99 ms (worst 5 s) | event loop max ms | server RSS max MB | A: answers by status | A: p50 / max ms by kind | A afterwards: exclusions (status, version, families), diagnostic alone |',
  );
  lines.push('|---|---|---:|---:|---:|---|---|---|');
  for (const r of results) {
    const c = r.config as ConfigCheck;
    const byKind = Object.entries(r.a.ms)
      .sort()
      .map(([kind, ms]) => `${kind} ${f1(percentile(ms, 50))} / ${f1(Math.max(...ms))}`)
      .join(', ');
    lines.push(
      `| ${nameOf(r)} | ${r.load.map((l) => l.toFixed(1)).join(' → ')} | ${f1(Math.max(...r.loop.map((l) => l.p99Ms)))} | ` +
        `${f1(Math.max(...r.loop.map((l) => l.maxMs)))} | ${f1(Math.max(...r.rss))} | ${statusesOf(r.a)} | ${byKind} | ` +
        `${c.status}, v${c.version}, ${c.families} families (${(c.bytes / 1e6).toFixed(1)} MB at start); ${c.diagnosticStatus} in ${f1(c.diagnosticMs)} ms |`,
    );
  }
  lines.push('');
  for (const r of results) {
    const c = r.config as ConfigCheck;
    const whole = c.status === 200 && c.families === EXCLUDED_FAMILIES && c.diagnosticStatus === 200;
    lines.push(
      `- ${nameOf(r)}: B errors ${r.attacked.errors.length}${r.attacked.errors.length ? ` (${[...new Set(r.attacked.errors)].slice(0, 3).join(', ')})` : ''}; ` +
        `A's answers outside 2xx, 409, 429, 503 in French: ${r.a.wrong.length}${r.a.wrong.length ? ` (${r.a.wrong.slice(0, 2).join('; ')})` : ''}; ` +
        `A's configuration whole afterwards: ${whole ? 'yes' : 'NO'}.`,
    );
  }
  return lines.join('\n');
}

const machine = describeMachine();
const targets: TargetName[] =
  args.db === 'both' ? ['embedded', 'postgres'] : [args.db === 'postgres' ? 'postgres' : 'embedded'];
const results: RunResult[] = [];
for (const [k, name] of targets.entries()) results.push(await runOn(name, 5480 + k));
const text = report(results, machine);
process.stdout.write(`${text}\n`);
if (args.json)
  writeFileSync(
    args.json,
    JSON.stringify(
      results.map((r) => ({ ...r, a: { ...r.a, byStatus: [...r.a.byStatus.entries()] } })),
      null,
      1,
    ),
  );
if (!args['no-readme'] && MODE === 'records') writeReadmeSection('bench/noisy-neighbour', text);
