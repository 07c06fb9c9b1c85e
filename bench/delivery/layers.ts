/**
 * What each per-request layer of a signed-in console request costs, from a bare fastify up to the
 * whole app (issue 18: the answers that repeat against a bare fastify sending the same bytes).
 *
 *   npm run build
 *   npx tsx bench/delivery/layers.ts [--duration 2] [--rounds 3] [--targets embedded,postgres]
 *     [--probe 5000]
 *
 * For each database, apps/server/src/bench/layers-server.ts (one process, the sources of apps/server through tsx) opens
 * a fresh database with the demo configuration's installation and one session, and serves one
 * fastify per step (bare, logger, request-log, metrics, guards, plugins, session, route, app: each
 * adds one layer to the one before; the list is in layers-server.ts). autocannon (20 connections)
 * runs `--duration` s on each step in turn, `--rounds` times (the steps alternate within a round,
 * so a change of the machine's load hits all of them). Per step: req/s (mean of the rounds) and
 * the CPU time of the server process per answer (all its threads, /proc; the embedded database
 * runs in one of them), and on PostgreSQL the CPU of the database's backends serving that process
 * (found by application_name) per answer. Then the session check's parts, one call after the
 * other (`--probe` calls each). Prints Markdown tables; bench/README.md « Compression » holds them.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import { describeMachine } from '../config-xml/machine.ts';
import { createInstallation, prepareTarget, REPO, type Target, type TargetName } from '../support/server.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    targets: { type: 'string', default: 'embedded,postgres' },
    probe: { type: 'string', default: '5000' },
  },
});
const duration = Number(values.duration);
const ROUNDS = Number(values.rounds);
const connections = 20;
const POSTGRES_URL = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** What layers-server.ts tells once its steps listen (its `Ready`). */
interface Ready {
  steps: string[];
  ports: Record<string, number>;
  cookie: string;
}

/** A route and the Accept-Encoding it is asked with ('': none). */
interface Case {
  route: string;
  encoding: string;
}

const CASES: Case[] = [
  { route: '/api/user', encoding: 'br, gzip' },
  { route: '/api/user', encoding: '' },
  { route: '/api/config/planifications', encoding: 'br, gzip' },
  { route: '/api/config/planifications', encoding: '' },
];

/** CPU time a process used so far (user + system, all threads), ms; 0 when unknown. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** The PostgreSQL backends of a server (by application_name); none on the embedded database. */
async function backendPids(appName: string | null): Promise<number[]> {
  if (!appName) return [];
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const res = await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
      [appName],
    );
    return res.rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

const sum = (pids: number[]) => pids.reduce((n, pid) => n + cpuMs(pid), 0);

function cannon(url: string, headers: Record<string, string>) {
  return new Promise<Result>((resolve, reject) =>
    autocannon({ url, duration, connections, headers }, (err, res) => (err ? reject(err) : resolve(res))),
  );
}

interface Measured {
  step: string;
  reqs: number;
  cpuUs: number;
  dbCpuUs: number;
}

type Probe = Record<string, { cpuUs: number; wallUs: number }>;

async function startLayers(target: Target, syncId: string, appName: string | null) {
  const env = { ...process.env, ...target.env };
  if (appName && env.DATABASE_URL) {
    const url = new URL(env.DATABASE_URL);
    url.searchParams.set('application_name', appName);
    env.DATABASE_URL = url.toString();
  }
  const child = fork(join(REPO, 'apps/server/src/bench/layers-server.ts'), ['--sync-id', syncId], {
    cwd: REPO,
    env,
    execArgv: ['--import', 'tsx'],
    // Logs go where production sends them least expensively: nowhere (a pipe costs more).
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.on('message', (m: { ready?: Ready }) => m.ready && resolve(m.ready));
    child.once('exit', (code) => reject(new Error(`layers-server stopped (${code})`)));
  });
  return { child, ready };
}

/** The session check's parts, timed by the layers server (`n` calls each). */
function probe(child: ChildProcess, n: number): Promise<Probe> {
  return new Promise((resolve) => {
    const on = (m: { probe?: Probe }) => {
      if (!m.probe) return;
      child.off('message', on);
      resolve(m.probe);
    };
    child.on('message', on);
    child.send({ probe: n });
  });
}

async function measureTarget(name: TargetName) {
  const target = await prepareTarget(name, 'layers');
  const appName = name === 'postgres' ? `bench_layers_${process.pid}` : null;
  try {
    createInstallation(target, 'LAYER001', 'layers-client-00001');
    const { child, ready } = await startLayers(target, 'LAYER001', appName);
    const pid = child.pid ?? 0;
    try {
      const probed = await probe(child, Number(values.probe));
      // The pool opens its connections under load: warm it, then list its backends before each run.
      await cannon(`http://127.0.0.1:${ready.ports.session}${CASES[0]?.route ?? '/api/user'}`, {
        cookie: ready.cookie,
      });
      const results: { route: string; encoding: string; rows: Measured[] }[] = [];
      for (const c of CASES) {
        const headers: Record<string, string> = {
          cookie: ready.cookie,
          ...(c.encoding ? { 'accept-encoding': c.encoding } : {}),
        };
        const acc = new Map<string, { reqs: number[]; cpu: number; db: number; served: number }>();
        for (let round = 0; round < ROUNDS; round += 1) {
          for (const step of ready.steps) {
            const pids = await backendPids(appName);
            const a0 = cpuMs(pid);
            const d0 = sum(pids);
            const r = await cannon(`http://127.0.0.1:${ready.ports[step]}${c.route}`, headers);
            const cpu = cpuMs(pid) - a0;
            const db = sum(pids) - d0;
            if (r.non2xx > 0) throw new Error(`${step} ${c.route}: ${r.non2xx} answers not 2xx`);
            const a = acc.get(step) ?? { reqs: [], cpu: 0, db: 0, served: 0 };
            a.reqs.push(r.requests.average);
            a.cpu += cpu;
            a.db += db;
            a.served += r.requests.total;
            acc.set(step, a);
          }
        }
        const rows = ready.steps.map((step) => {
          const a = acc.get(step) ?? { reqs: [0], cpu: 0, db: 0, served: 1 };
          return {
            step,
            reqs: a.reqs.reduce((n, x) => n + x, 0) / a.reqs.length,
            cpuUs: (a.cpu * 1000) / Math.max(1, a.served),
            dbCpuUs: (a.db * 1000) / Math.max(1, a.served),
          };
        });
        results.push({ route: c.route, encoding: c.encoding || 'none', rows });
        console.log(
          `${name} ${c.route} [${c.encoding || 'none'}]: ${rows
            .map((r) => `${r.step} ${r.reqs.toFixed(0)}/s ${r.cpuUs.toFixed(0)}µs`)
            .join(', ')}`,
        );
      }
      return { name, probed, results };
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  } finally {
    await target.cleanup();
  }
}

const load = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(', ');
const started = new Date().toISOString().slice(0, 16).replace('T', ' ');
const lines = [
  `${describeMachine()}; ${started} UTC, uptime load ${load} at start; ${connections} connections; ${ROUNDS} rounds of ${duration} s per step, the steps alternating within each round.`,
];
for (const name of values.targets.split(',') as TargetName[]) {
  const { probed, results } = await measureTarget(name);
  const pgCol = name === 'postgres';
  for (const { route, encoding, rows } of results) {
    const bare = rows[0] ?? { reqs: 1, cpuUs: 1, dbCpuUs: 0 };
    lines.push(
      '',
      `**${name}, \`${route}\`, Accept-Encoding: ${encoding}**`,
      '',
      `| Step | req/s | ÷ bare | CPU µs/answer | + vs step before | CPU bare ÷ step${pgCol ? ' | database CPU µs/answer' : ''} |`,
      `| --- | ---: | ---: | ---: | ---: | ---: |${pgCol ? ' ---: |' : ''}`,
      ...rows.map((r, i) => {
        const before = rows[i - 1];
        const delta = before && r.step !== 'app' ? (r.cpuUs - before.cpuUs).toFixed(0) : '';
        return `| ${r.step} | ${r.reqs.toFixed(0)} | ${(r.reqs / bare.reqs).toFixed(2)} | ${r.cpuUs.toFixed(0)} | ${delta} | ${(bare.cpuUs / r.cpuUs).toFixed(2)}${pgCol ? ` | ${r.dbCpuUs.toFixed(0)}` : ''} |`;
      }),
    );
  }
  lines.push(
    '',
    `**${name}, the session check's parts**, ${values.probe} calls each, one after the other (CPU: this process, all its threads):`,
    '',
    '| Part | CPU µs/call | wall µs/call |',
    '| --- | ---: | ---: |',
    ...Object.entries(probed).map(([k, v]) => `| ${k} | ${v.cpuUs.toFixed(1)} | ${v.wallUs.toFixed(1)} |`),
  );
}
console.log(lines.join('\n'));
