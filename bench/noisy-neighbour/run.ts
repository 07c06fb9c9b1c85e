/**
 * One installation under attack through the connector API, another one using its console: does
 * the first slow, break or starve the second? (Issue « No installation can stall, exhaust or spy
 * on the console for the others », docs/server.md « Partage équitable ».)
 *
 *   npm run build -w @synchro/server
 *   npx tsx bench/noisy-neighbour/run.ts [--db both|embedded|postgres] [--seconds 60]
 *     [--quiet-seconds 30] [--no-readme]
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
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine } from '../config-xml/machine.ts';
import {
  createInstallation,
  prepareTarget,
  rssMb,
  signIn,
  startServer,
  stopServer,
  writeReadmeSection,
  type Server,
  type TargetName,
} from '../support/server.ts';
import { attributes, nextId, postConnector, recordJson, tally, type Tally } from './attack.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    seconds: { type: 'string', default: '60' },
    'quiet-seconds': { type: 'string', default: '30' },
    'no-readme': { type: 'boolean', default: false },
    /** A folder: the server writes its CPU profile there (node --cpu-prof), to see what blocks. */
    'cpu-prof': { type: 'string' },
  },
});
const ATTACK_SECONDS = Number(args.seconds);
const QUIET_SECONDS = Number(args['quiet-seconds']);
const CONNECTOR = '/api/connector/v1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A's attack in a process of its own (attacker.ts); its tally once it is over. */
function attackFromAnotherProcess(base: string, token: string, seconds: number): Promise<Tally> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'attacker.ts')], {
    env: { ...process.env, ATTACK_BASE: base, ATTACK_TOKEN: token, ATTACK_SECONDS: String(seconds) },
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

function watchLogs(server: Server): { reports: LoopReport[] } {
  const reports: LoopReport[] = [];
  let partial = '';
  server.process.stdout?.on('data', (chunk: Buffer) => {
    partial += chunk.toString('utf8');
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('eventLoopDelay')) continue;
      try {
        reports.push((JSON.parse(line) as { eventLoopDelay: LoopReport }).eventLoopDelay);
      } catch {
        // not a JSON line
      }
    }
  });
  return { reports };
}

function sampleRss(pid: number): { stop: () => number[] } {
  const samples: number[] = [];
  const timer = setInterval(() => samples.push(rssMb(pid)), 1000);
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
  quiet: Latencies;
  attacked: Latencies;
  loop: LoopReport[];
  rss: number[];
  a: Tally;
  halfStored: string[];
  acceptedBatches: number;
  single: SingleRecord;
  atLimit: SingleRecord;
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
  const target = await prepareTarget(name, 'noisy');
  let server: Server | null = null;
  try {
    const tokenA = createInstallation(target, 'NOISYA01', 'bench-client-id-noisy-a');
    const tokenB = createInstallation(target, 'QUIETB01', 'bench-client-id-quiet-b');
    const nodeArgs = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [];
    server = await startServer(target, port, nodeArgs, {
      env: { LOG_LEVEL: 'info', LOOP_DELAY_REPORT_SECONDS: '5' },
      stdout: 'pipe',
    });
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

    process.stderr.write(`${name}: B alone for ${QUIET_SECONDS} s\n`);
    const quiet = await consoleLoad(base, cookieB, QUIET_SECONDS);

    process.stderr.write(`${name}: B while A attacks for ${ATTACK_SECONDS} s\n`);
    const loopBefore = logs.reports.length;
    const rss = sampleRss(server.process.pid as number);
    const [attacked, a] = await Promise.all([
      consoleLoad(base, cookieB, ATTACK_SECONDS),
      attackFromAnotherProcess(base, tokenA, ATTACK_SECONDS),
    ]);
    const rssSamples = rss.stop();
    await sleep(6000); // the last event-loop report of the attack
    const loop = logs.reports.slice(loopBefore);

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
      target: name,
      quiet,
      attacked,
      loop,
      rss: rssSamples,
      a,
      halfStored,
      acceptedBatches: a.batches.filter((b) => b.accepted).length,
      single,
      atLimit,
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
    const statuses = [...r.a.byStatus.entries()]
      .sort()
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    lines.push(
      `| ${name} | ${f1(Math.max(...r.loop.map((l) => l.p99Ms)))} | ${f1(Math.max(...r.loop.map((l) => l.maxMs)))} | ` +
        `${f1(Math.max(...r.rss))} | ${statuses} | ${r.acceptedBatches} / ${r.a.batches.length} | ` +
        `${r.halfStored.length === 0 ? 'none' : r.halfStored.join('; ')} | ${f1(r.single.postMs)} (${r.single.status}) | ` +
        `${f1(r.atLimit.postMs)} (${r.atLimit.status}) | ${f1(r.atLimit.viewMs)} (${r.atLimit.viewStatus}) |`,
    );
  }
  lines.push('');
  for (const r of results) {
    const name = r.target === 'embedded' ? 'embedded' : 'PostgreSQL';
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
      `nothing stored half: ${r.halfStored.length === 0 ? 'met' : 'NOT met'}`,
      `100 000 attributes answered ≤ 500 ms (stored, or refused naming the limit): ${f1(r.single.postMs)} ms, ${r.single.status}${r.single.message ? ` « ${r.single.message} »` : ''} → ${r.single.postMs <= 500 && (r.single.status === 200 || ([400, 422].includes(r.single.status) && /attributs/.test(r.single.message))) ? 'met' : 'NOT met'}`,
      `10 000 attributes stored and shown ≤ 500 ms each: ${f1(r.atLimit.postMs)} / ${f1(r.atLimit.viewMs)} → ${r.atLimit.status === 200 && r.atLimit.viewStatus === 200 && r.atLimit.postMs <= 500 && r.atLimit.viewMs <= 500 ? 'met' : 'NOT met'}`,
    ];
    lines.push(`- ${name}: ${checks.join('; ')}.`);
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
if (!args['no-readme']) writeReadmeSection('bench/noisy-neighbour', text);
