/**
 * The command as a plain `node` process (the esbuild bundle, as the server spawns it), against
 * the scripted console.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeConsole, waitFor } from './fake-console.ts';
import { FIXTURE_CONFIG, sendSyncOrder } from './helpers.ts';

const TOKEN = 'ctk_cli_1c2d3e4f5a6b7c8d9e0f';
const packageDir = fileURLToPath(new URL('..', import.meta.url));
let outdir: string;
let cli: string;
let fake: FakeConsole;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(() => {
  // Inside the package (ignored by git) so that the bundle's external packages resolve.
  mkdirSync(join(packageDir, '.tmp'), { recursive: true });
  outdir = mkdtempSync(join(packageDir, '.tmp', 'cli-test-'));
  const built = spawnSync(process.execPath, [join(packageDir, 'build.mjs'), '--outdir', outdir], {
    encoding: 'utf8',
  });
  expect(built.status, built.stderr).toBe(0);
  cli = join(outdir, 'cli.js');
});

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

beforeEach(async () => {
  fake = new FakeConsole(TOKEN, FIXTURE_CONFIG);
  await fake.start();
});

afterEach(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  children.length = 0;
  await fake.stop();
  expect(fake.offContract).toEqual([]);
});

function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, ...env } });
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out, exited };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('automate-sim command', () => {
  it('prints its help', async () => {
    const { out, exited } = run(['--help']);
    expect(await exited).toBe(0);
    expect(out.stdout).toContain('Usage : npm run automate -- --server URL --sync-id ID --token TOKEN');
  });

  it('refuses a wrong command line with exit code 2 and a French message', async () => {
    const { out, exited } = run(['--server', fake.url, '--sync-id', 'DEMOA001', '--fail-rate', '2'], {
      AUTOMATE_TOKEN: TOKEN,
    });
    expect(await exited).toBe(2);
    expect(out.stderr).toContain('Option --fail-rate : un nombre entre 0 et 1 est attendu (reçu « 2 »).');
  });

  it('runs as a process: registers, answers an order, plays the sync, stops on SIGTERM', async () => {
    const port = await freePort();
    const { child, out, exited } = run(
      [
        '--server',
        fake.url,
        '--sync-id',
        'DEMOA001',
        '--port',
        String(port),
        '--host',
        '127.0.0.1',
        '--verbose',
      ],
      { AUTOMATE_TOKEN: TOKEN },
    );
    await waitFor(() => fake.registrations.length === 1);
    expect(out.stdout).toContain(`en écoute sur le port ${port}`);
    expect(fake.registrations[0]).toMatchObject({ port, version: '6.11.23.9' });
    const answer = await sendSyncOrder(port, { type: 'I' });
    expect(answer.text).toContain('<RetSync>1</RetSync>');
    await waitFor(() => fake.patches.length === 1);
    expect(fake.recordBatches.length).toBeGreaterThan(0);
    expect(fake.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out.stdout).toContain('simulateur arrêté');
    expect(out.stdout.split('\n').length).toBeGreaterThan(5);
    expect(out.stdout + out.stderr).not.toContain(TOKEN);
  });

  it('takes the token from --token as well', async () => {
    const { child, out, exited } = run([
      '--server',
      fake.url,
      '--sync-id',
      'DEMOA001',
      '--token',
      TOKEN,
      '--host',
      '127.0.0.1',
      '--offline',
    ]);
    await waitFor(() => out.stdout.includes('aucun signalement à la console'));
    await new Promise((r) => setTimeout(r, 200));
    expect(child.exitCode).toBeNull(); // still listening
    expect(fake.registrations).toEqual([]); // --offline
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
