/**
 * What idle event streams cost the server (docs/live.md): the built server on a fresh embedded
 * database, one session, then N streams of GET /api/events held open and idle. The server's
 * resident memory and CPU time (user + system, /proc) over the same idle window, without and
 * with the streams. `npx tsx bench/live/run.ts [streams=1000] [idleSeconds=60]`.
 */
import { request, Agent, type ClientRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { cpus } from 'node:os';
import {
  createInstallation,
  prepareTarget,
  rssMb,
  signIn,
  startServer,
  stopServer,
  writeReadmeSection,
} from '../support/server.ts';

const STREAMS = Number(process.argv[2] ?? 1000);
const IDLE_S = Number(process.argv[3] ?? 60);
const PORT = 47_000 + (process.pid % 1000);

/** CPU time of a process so far, ms (utime + stime of /proc/pid/stat, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function idleWindow(pid: number): Promise<{ rss: number; cpuPerMin: number }> {
  const before = cpuMs(pid);
  await sleep(IDLE_S * 1000);
  return { rss: rssMb(pid), cpuPerMin: ((cpuMs(pid) - before) / IDLE_S) * 60 };
}

async function main() {
  const target = await prepareTarget('embedded', 'live');
  const token = createInstallation(target, 'BENCHLIV', 'CLIENTLIVE-BENCH-0001');
  void token;
  const server = await startServer(target, PORT);
  const pid = server.process.pid!;
  const requests: ClientRequest[] = [];
  try {
    const cookie = await signIn(server.base, 'BENCHLIV', 'CLIENTLIVE-BENCH-0001');
    await sleep(3000);
    const base = await idleWindow(pid);
    const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
    let opened = 0;
    await Promise.all(
      Array.from(
        { length: STREAMS },
        () =>
          new Promise<void>((resolve, reject) => {
            const req = request(
              { host: '127.0.0.1', port: PORT, path: '/api/events', headers: { cookie }, agent },
              (res) => {
                if (res.statusCode !== 200) reject(new Error(`stream refused: ${res.statusCode}`));
                opened++;
                res.resume();
                resolve();
              },
            );
            req.on('error', reject);
            req.end();
            requests.push(req);
          }),
      ),
    );
    await sleep(3000);
    const held = await idleWindow(pid);
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const cpu = cpus()[0]?.model ?? '?';
    const table = [
      `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} × ${cpu}, Node ${process.version}, embedded database, load average before the run ${load} (\`uptime\`: ${execSync('uptime').toString().trim()}).`,
      `\`npx tsx bench/live/run.ts ${STREAMS} ${IDLE_S}\`: the server idle for ${IDLE_S} s without streams, then with ${opened} open idle streams of GET /api/events (one session).`,
      '',
      '| server, idle | resident memory MB | CPU ms per minute |',
      '|---|---:|---:|',
      `| no stream | ${base.rss.toFixed(1)} | ${base.cpuPerMin.toFixed(0)} |`,
      `| ${opened} streams | ${held.rss.toFixed(1)} | ${held.cpuPerMin.toFixed(0)} |`,
      '',
      `Per idle stream: ${(((held.rss - base.rss) * 1024) / opened).toFixed(1)} KB of memory, ${((held.cpuPerMin - base.cpuPerMin) / opened).toFixed(3)} ms of CPU per minute (a heartbeat line every 25 s).`,
    ].join('\n');
    console.log(table);
    writeReadmeSection('live', `## Live: idle event streams\n\n${table}`);
  } finally {
    for (const r of requests) r.destroy();
    await stopServer(server);
    await target.cleanup();
  }
}

await main();
