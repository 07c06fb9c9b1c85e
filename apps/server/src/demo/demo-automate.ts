import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Db } from '../db/types.ts';
import { rotateConnectorToken } from '../domain/installation-admin.ts';
import { AUTOMATE_SIM_CLI } from '../paths.ts';

/**
 * The demo's automate simulator (tools/automate-sim): started by the server on the embedded
 * database for the demo installation, so that the sync buttons work on a fresh machine
 * (docs/server.md, Demo automate). Its connector token is never stored in clear: a new one is
 * made at each start (the old one stops at once, audited as the system's) and given to the
 * simulator in its environment (`AUTOMATE_TOKEN`), never on its command line. The simulator has
 * an IPC channel to the server and stops when it closes: it never outlives the server, whether
 * the server stops, crashes or is killed.
 */
export interface DemoAutomate {
  pid: number;
  stop(): Promise<void>;
}

export interface DemoAutomateOptions {
  db: Db;
  syncId: string;
  /** The console as the simulator reaches it (`http://127.0.0.1:5000`). */
  serverUrl: string;
  /** Lines for the server's output. */
  say: (line: string) => void;
  /** Forward the simulator's own lines (one per event); its errors always are. */
  verbose: boolean;
  /** The simulator's bundle (tests may point elsewhere). */
  cli?: string;
}

/** Where the server listens, as a URL a local process can reach. */
export function localServerUrl(host: string, port: number): string {
  if (['0.0.0.0', '127.0.0.1', 'localhost', ''].includes(host)) return `http://127.0.0.1:${port}`;
  if (host === '::') return `http://[::1]:${port}`;
  return host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}

function forward(child: ChildProcess, say: (line: string) => void, verbose: boolean): void {
  if (child.stdout && verbose) {
    createInterface({ input: child.stdout }).on('line', (line) => say(`[automate] ${line}`));
  } else child.stdout?.resume();
  if (child.stderr) createInterface({ input: child.stderr }).on('line', (line) => say(`[automate] ${line}`));
}

export async function startDemoAutomate(options: DemoAutomateOptions): Promise<DemoAutomate | null> {
  const cli = options.cli ?? AUTOMATE_SIM_CLI;
  if (!existsSync(cli)) {
    options.say(
      `Simulateur d'automate non construit (${cli} absent) : les boutons de synchronisation répondront ` +
        "qu'aucun service n'est enregistré. `npm start` ou `npm run build` le construit.",
    );
    return null;
  }
  const token = await rotateConnectorToken(options.db, options.syncId, {
    actor: 'system',
    reason: 'demo-automate',
  });
  const child = spawn(
    process.execPath,
    [
      cli,
      ...['--server', options.serverUrl, '--sync-id', options.syncId],
      // Listens and reports on loopback: allowed for the demo installation on the embedded database
      // (network/automate-address.ts).
      ...['--host', '127.0.0.1', '--ip', '127.0.0.1', '--port', '0'],
    ],
    {
      // Only what it needs: never the server's own secrets (DATABASE_URL, SESSION_SECRET…).
      env: {
        AUTOMATE_TOKEN: token,
        PATH: process.env.PATH ?? '',
        ...(process.env.TZ ? { TZ: process.env.TZ } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  forward(child, options.say, options.verbose);

  let stopping = false;
  const killOnExit = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  // A crash of the server (an uncaught error ends it through 'exit'): the simulator goes too. A
  // kill -9 runs nothing here; the closed IPC channel stops it then.
  process.on('exit', killOnExit);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      process.off('exit', killOnExit);
      if (!stopping) {
        options.say(
          `Le simulateur d'automate s'est arrêté (${signal ?? `code ${code}`}) : les demandes de ` +
            'synchronisation échoueront jusqu’au prochain démarrage du serveur.',
        );
      }
      resolve();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  options.say(`Simulateur d'automate démarré pour ${options.syncId} (PID ${child.pid}).`);

  return {
    pid: child.pid ?? -1,
    async stop() {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
