// GET /api/user and GET /api/dashboard with a session against a bare fastify hello-world, in the
// same run (autocannon).
// Usage: npm run build && node bench/api/user-vs-hello.mjs [--duration 10]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';

const duration = Number(process.argv[process.argv.indexOf('--duration') + 1]) || 10;
const connections = 20;
const port = 5077;
const origin = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'synchro-bench-'));
const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };

function run(opts) {
  return new Promise((resolve, reject) =>
    autocannon({ duration, connections, ...opts }, (e, r) => (e ? reject(e) : resolve(r))),
  );
}

async function waitFor(url) {
  for (let i = 0; i < 300; i += 1) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`server did not answer at ${url}`);
}

const created = spawnSync(
  process.execPath,
  [
    'apps/server/dist/cli.js',
    'create-installation',
    '--sync-id',
    'BENCH001',
    '--client-id',
    'bench-client-id-0001',
    '--config',
    'apps/server/demo/connexion-ebp-gescom.xml',
    '--premium',
    '--options',
    '25;BENCH001;A',
  ],
  { env, encoding: 'utf8' },
);
if (created.status !== 0) throw new Error(created.stderr);

const server = spawn(process.execPath, ['apps/server/dist/main.js'], { env, stdio: 'inherit' });
try {
  await waitFor(`${origin}/auth`);
  const login = await fetch(`${origin}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ username: 'BENCH001', password: 'bench-client-id-0001' }),
  });
  if (!login.ok) throw new Error(`login failed: ${login.status}`);
  const cookie = login.headers.get('set-cookie').split(';')[0];

  const hello = Fastify();
  hello.get('/', async () => ({ hello: 'world' }));
  await hello.listen({ port: port + 1, host: '127.0.0.1' });

  const bare = await run({ url: `http://127.0.0.1:${port + 1}/` });
  const user = await run({ url: `${origin}/api/user`, headers: { cookie } });
  const dashboard = await run({ url: `${origin}/api/dashboard`, headers: { cookie } });
  await hello.close();
  if (user.non2xx > 0) throw new Error(`${user.non2xx} non-2xx answers from /api/user`);
  if (dashboard.non2xx > 0) throw new Error(`${dashboard.non2xx} non-2xx answers from /api/dashboard`);

  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const row = (name, r) =>
    `| ${name} | ${Math.round(r.requests.average)} | ${r.latency.p50} | ${r.latency.p99} |`;
  const ratio = (r) => (r.requests.average / bare.requests.average).toFixed(2);
  const section = [
    '## API: GET /api/user and /api/dashboard with a session vs bare fastify',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpu}, Node ${process.version}, embedded database (PGlite), ` +
      `autocannon ${connections} connections × ${duration} s each, all in the same run.`,
    '',
    '| target | req/s | p50 ms | p99 ms |',
    '|---|---|---|---|',
    row('bare fastify hello-world', bare),
    row('GET /api/user (session, config 123 KB redacted)', user),
    row('GET /api/dashboard (session, same configuration)', dashboard),
    '',
    `Ratios ÷ bare: /api/user **${ratio(user)}**, /api/dashboard **${ratio(dashboard)}**.`,
    '',
  ].join('\n');
  const readme = 'bench/README.md';
  let text = '';
  try {
    text = readFileSync(readme, 'utf8');
  } catch {
    text =
      '# Benchmarks\n\nFigures from the scripts of this folder. Re-run them; compare ratios, not absolute numbers (±50 % noise between runs).\n\n';
  }
  const start = text.indexOf('## API: GET /api/user');
  if (start >= 0) {
    const next = text.indexOf('\n## ', start + 1);
    text = text.slice(0, start) + section + (next >= 0 ? text.slice(next + 1) : '');
  } else {
    text = `${text.trimEnd()}\n\n${section}`;
  }
  writeFileSync(readme, text);
  console.log(section);
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
