/**
 * What the answers that repeat cost against sending their bytes (issue 18, compression).
 *
 *   npm run build
 *   npx tsx bench/delivery/compression.ts [--duration 2] [--targets embedded,postgres]
 *     [--entry apps/server/dist/main.js] [--label after] [--no-readme]
 *
 * For each database, the built server (`--entry`: another build's main.js measures a "before")
 * runs with an installation of the demo configuration and one signed-in session. Each route is
 * fetched once as a browser asks it (`Accept-Encoding: br, gzip`) and once without compression;
 * the bytes it sent (still encoded) and its headers go to a bare fastify (bare-bytes.mjs, its own
 * process), and autocannon (20 connections) measures the console then the bare server in three
 * alternating rounds: the ratio of the two is what counts on a shared, loaded machine.
 * Beside req/s, the CPU time of each server process (all its threads, /proc) per answer: far less
 * moved by the machine's other jobs than req/s (on PostgreSQL the database's own CPU is not counted).
 * Then the brotli and gzip levels on the /api/user answer: size and time (the choice of
 * http/representations.ts). The table of `--label` in bench/README.md (« Compression ») is
 * replaced, other labels' tables are kept.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import autocannon, { type Result } from 'autocannon';
import { describeMachine } from '../config-xml/machine.ts';
import {
  createInstallation,
  median,
  prepareTarget,
  readmeSection,
  REPO,
  signIn,
  startServer,
  stopServer,
  writeReadmeSection,
  type TargetName,
} from '../support/server.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '2' },
    targets: { type: 'string', default: 'embedded,postgres' },
    entry: { type: 'string', default: join(REPO, 'apps/server/dist/main.js') },
    label: { type: 'string', default: 'after' },
    'no-readme': { type: 'boolean', default: false },
  },
});
const ROUNDS = 3;
const duration = Number(values.duration);
const connections = 20;
const SERVER_PORT = 5481;
const BARE_PORT = 5482;
const BROWSER = 'br, gzip';

interface Raw {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One GET whose body stays as it travelled (fetch would decode it). */
function rawGet(base: string, path: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const kept: Record<string, string> = {};
        for (const name of ['content-type', 'content-encoding', 'vary', 'etag', 'cache-control']) {
          const v = res.headers[name];
          if (v !== undefined) kept[name] = String(v);
        }
        resolve({ status: res.statusCode ?? 0, headers: kept, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

function cannon(url: string, headers: Record<string, string>) {
  return new Promise<Result>((resolve, reject) =>
    autocannon({ url, duration, connections, headers }, (err, res) => (err ? reject(err) : resolve(res))),
  );
}

async function startBare(manifestFile: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [join(REPO, 'bench/delivery/bare-bytes.mjs'), manifestFile, String(BARE_PORT)],
    {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`bare server stopped (${code})`)));
  });
  return child;
}

interface Row {
  target: TargetName;
  route: string;
  encoding: string;
  bytes: number;
  app: number;
  appP99: number;
  bare: number;
  bareP99: number;
  /** CPU time of the server process (all its threads) per answer, µs. */
  appCpuUs: number;
  bareCpuUs: number;
}

/** CPU time a process used so far (user + system, all threads), ms; 0 when unknown. */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

async function measureTarget(name: TargetName): Promise<Row[]> {
  const target = await prepareTarget(name, 'compression', { entry: values.entry });
  const rows: Row[] = [];
  const tmp = mkdtempSync(join(os.tmpdir(), 'synchro-compression-'));
  try {
    createInstallation(target, 'COMPR001', 'compression-client-0001');
    const server = await startServer(target, SERVER_PORT, [], {}, values.entry);
    try {
      const cookie = await signIn(server.base, 'COMPR001', 'compression-client-0001');
      const index = await rawGet(server.base, '/', {});
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(index.body.toString('utf8'))?.[1];
      const routes = [
        '/api/user',
        '/api/config/sources',
        '/api/config/planifications',
        '/api/dashboard',
        ...(script ? [script] : []),
      ];
      const cases = routes.flatMap((route) => [BROWSER, ''].map((encoding) => ({ route, encoding })));
      const manifest = [];
      for (const [i, c] of cases.entries()) {
        const headers: Record<string, string> = {
          cookie,
          ...(c.encoding ? { 'accept-encoding': c.encoding } : {}),
        };
        const res = await rawGet(server.base, c.route, headers);
        if (res.status !== 200) throw new Error(`${c.route}: ${res.status}`);
        const file = join(tmp, `body-${i}`);
        writeFileSync(file, res.body);
        manifest.push({ path: `/case/${i}`, headers: res.headers, file });
      }
      const manifestFile = join(tmp, 'manifest.json');
      writeFileSync(manifestFile, JSON.stringify(manifest));
      const bare = await startBare(manifestFile);
      try {
        for (const [i, c] of cases.entries()) {
          const headers: Record<string, string> = {
            cookie,
            ...(c.encoding ? { 'accept-encoding': c.encoding } : {}),
          };
          // Rounds alternate console and floor: a change of the machine's load hits both.
          const app: Result[] = [];
          const floor: Result[] = [];
          let appCpu = 0;
          let bareCpu = 0;
          for (let round = 0; round < ROUNDS; round += 1) {
            const a0 = cpuMs(server.process.pid);
            app.push(await cannon(`${server.base}${c.route}`, headers));
            appCpu += cpuMs(server.process.pid) - a0;
            const b0 = cpuMs(bare.pid);
            floor.push(await cannon(`http://127.0.0.1:${BARE_PORT}/case/${i}`, headers));
            bareCpu += cpuMs(bare.pid) - b0;
          }
          const served = (rs: Result[]) => rs.reduce((n, r) => n + r.requests.total, 0);
          const failed = app.reduce((n, r) => n + r.non2xx, 0);
          if (failed > 0) throw new Error(`${c.route}: ${failed} answers not 2xx`);
          const rate = (rs: Result[]) => rs.reduce((n, r) => n + r.requests.average, 0) / rs.length;
          const p99 = (rs: Result[]) => median(rs.map((r) => r.latency.p99));
          const row: Row = {
            target: name,
            route: c.route.startsWith('/assets/') ? '/assets/index-….js (static)' : c.route,
            encoding: c.encoding
              ? `${c.encoding} → ${manifest[i]?.headers['content-encoding'] ?? 'none'}`
              : 'none',
            bytes: (await rawGet(server.base, c.route, headers)).body.length,
            app: rate(app),
            appP99: p99(app),
            bare: rate(floor),
            bareP99: p99(floor),
            appCpuUs: (appCpu * 1000) / Math.max(1, served(app)),
            bareCpuUs: (bareCpu * 1000) / Math.max(1, served(floor)),
          };
          rows.push(row);
          console.log(
            `${name} ${row.route} [${row.encoding}] ${row.bytes} B: ${row.app.toFixed(0)} req/s p99 ${row.appP99} ms; bare ${row.bare.toFixed(0)} req/s; ratio ${(row.app / row.bare).toFixed(2)}; CPU/answer ${row.appCpuUs.toFixed(0)} vs ${row.bareCpuUs.toFixed(0)} µs, ratio ${(row.bareCpuUs / row.appCpuUs).toFixed(2)}`,
          );
        }
      } finally {
        bare.kill('SIGTERM');
      }
    } finally {
      await stopServer(server);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    await target.cleanup();
  }
  return rows;
}

/** Brotli qualities and gzip levels on the /api/user answer of the demo configuration. */
async function qualities(): Promise<string> {
  const target = await prepareTarget('embedded', 'quality', { entry: values.entry });
  try {
    createInstallation(target, 'QUAL0001', 'quality-client-0001');
    const server = await startServer(target, SERVER_PORT, [], {}, values.entry);
    let body: Buffer;
    try {
      const cookie = await signIn(server.base, 'QUAL0001', 'quality-client-0001');
      body = (await rawGet(server.base, '/api/user', { cookie })).body;
    } finally {
      await stopServer(server);
    }
    const lines = [
      `/api/user of the demo configuration, ${body.length} bytes; median of 5 runs (one thread, the machine loaded).`,
      '',
      '| Encoding | Bytes | ms (once per version) |',
      '| --- | ---: | ---: |',
    ];
    const time = (f: () => Buffer): { bytes: number; ms: number } => {
      const ms: number[] = [];
      let out: Buffer = Buffer.alloc(0);
      for (let i = 0; i < 5; i += 1) {
        const t = performance.now();
        out = f();
        ms.push(performance.now() - t);
      }
      return { bytes: out.length, ms: median(ms) };
    };
    for (const q of [4, 6, 9, 11]) {
      const r = time(() =>
        brotliCompressSync(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: q,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          },
        }),
      );
      lines.push(`| brotli ${q} | ${r.bytes} | ${r.ms.toFixed(1)} |`);
    }
    for (const level of [6, 9]) {
      const r = time(() => gzipSync(body, { level }));
      lines.push(`| gzip ${level} | ${r.bytes} | ${r.ms.toFixed(1)} |`);
    }
    return lines.join('\n');
  } finally {
    await target.cleanup();
  }
}

const machine = describeMachine();
const uptime = os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(', ');
const all: Row[] = [];
for (const name of values.targets.split(',') as TargetName[]) all.push(...(await measureTarget(name)));
const quality = await qualities();

const table = [
  `### ${values.label}`,
  '',
  `${machine}; uptime load ${uptime} at start; ${connections} connections; for each row ${ROUNDS} rounds of ${duration} s of the console then ${duration} s of the bare fastify, alternating (req/s: their mean; p99: their median).`,
  '',
  '| Database | Route | Accept-Encoding → sent | Bytes | Console req/s | p99 ms | Bare req/s | p99 ms | Ratio | Console CPU µs/answer | Bare CPU µs/answer | CPU ratio |',
  '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...all.map(
    (r) =>
      `| ${r.target} | \`${r.route}\` | ${r.encoding} | ${r.bytes} | ${r.app.toFixed(0)} | ${r.appP99} | ${r.bare.toFixed(0)} | ${r.bareP99} | ${(r.app / r.bare).toFixed(2)} | ${r.appCpuUs.toFixed(0)} | ${r.bareCpuUs.toFixed(0)} | ${(r.bareCpuUs / r.appCpuUs).toFixed(2)} |`,
  ),
  '',
  quality,
].join('\n');
console.log(table);

if (!values['no-readme']) {
  const previous = readmeSection('bench/compression');
  const kept = previous
    .split(/(?=^### )/m)
    .filter((part) => part.startsWith('### ') && !part.startsWith(`### ${values.label}\n`))
    .map((part) => part.trim());
  const intro =
    previous.split(/^### /m)[0]?.trim() ||
    '## Compression: answers that repeat vs a bare fastify sending the same bytes';
  writeReadmeSection('bench/compression', [intro, ...kept, table].join('\n\n'));
}
