import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inPostgresPass } from './helpers/passes.ts';
import { startServerProcess } from './helpers/server-process.ts';

const root = mkdtempSync(join(tmpdir(), 'synchro-demo-off-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The real server process until its banner, then Ctrl-C; its whole output. */
async function runServer(env: Record<string, string>): Promise<string> {
  const server = await startServerProcess(env);
  expect(await server.stop()).toBe(0);
  return server.output();
}

describe.skipIf(inPostgresPass)('npm start with DEMO=0', () => {
  it('creates no demo on a fresh folder (0700); on a folder with the demo, deletes its stored client id (its suspension: demo.test.ts); on again, a new client id', async () => {
    const fresh = join(root, 'fresh');
    const off = await runServer({ DATA_DIR: fresh, DEMO: '0' });
    expect(off).toMatch(/démarrée en/);
    expect(off).not.toMatch(/DEMOA001|démonstration/);
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
    expect(existsSync(join(fresh, 'demo-credentials.txt'))).toBe(false);

    const withDemo = join(root, 'demo');
    const on = await runServer({ DATA_DIR: withDemo });
    expect(on).toMatch(/Installation de démonstration créée/);
    expect(existsSync(join(withDemo, 'demo-credentials.txt'))).toBe(true);
    const turnedOff = await runServer({ DATA_DIR: withDemo, DEMO: '0' });
    expect(turnedOff).not.toMatch(/démonstration/);
    expect(existsSync(join(withDemo, 'demo-credentials.txt'))).toBe(false);
    // Started again with the demo on: DEMOA001 is reopened with a new client id, printed and kept.
    const firstId = /ID Client\s+: (\S+)/.exec(on)?.[1];
    const again = await runServer({ DATA_DIR: withDemo });
    expect(again).toMatch(/ID de synchronisation : DEMOA001/);
    const newId = /ID Client\s+: ([A-Za-z0-9_-]{16,})/.exec(again)?.[1];
    expect(newId).toBeDefined();
    expect(newId).not.toBe(firstId);
    expect(existsSync(join(withDemo, 'demo-credentials.txt'))).toBe(true);
  }, 120_000);
});
