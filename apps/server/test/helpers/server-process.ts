import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { SERVER_ROOT } from '../../src/paths.ts';

/**
 * The real server as a child process, for the tests that start it as users do, or stop it the
 * hard way (`kill -9`) and start it again on the same data (docs/reliability.md): `src/main.ts`
 * bundled once per test
 * file the way build.mjs does it (tsx would compile it again at every start: 4-10 s on a busy
 * machine instead of 1-3 s).
 */
let bundle: Promise<string> | undefined;

function serverBundle(): Promise<string> {
  bundle ??= (async () => {
    // Inside the repository so that the packages left external resolve from its node_modules.
    const dir = join(SERVER_ROOT, '../../.tmp/reliability-bundles');
    mkdirSync(dir, { recursive: true });
    const result = await build({
      entryPoints: { main: join(SERVER_ROOT, 'src/main.ts') },
      outdir: dir,
      write: false,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
      // src/paths.ts finds the server folder from its own place.
      define: { 'import.meta.url': JSON.stringify(pathToFileURL(join(SERVER_ROOT, 'src/paths.ts')).href) },
      plugins: [
        {
          name: 'external-node-modules',
          setup(b) {
            b.onResolve({ filter: /^[^./]/ }, (args) =>
              args.path.startsWith('@synchro/') || args.path.startsWith('node:')
                ? undefined
                : { path: args.path, external: true },
            );
          },
        },
      ],
    });
    const code = result.outputFiles[0]?.contents;
    if (!code) throw new Error('esbuild gave no output');
    // Named after its content: files of several test processes share it, and an old one is
    // replaced rather than piled up.
    const name = `main-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
    for (const old of readdirSync(dir)) if (old !== name) rmSync(join(dir, old), { force: true });
    const file = join(dir, name);
    if (!existsSync(file)) {
      const partial = `${file}.${process.pid}.tmp`;
      writeFileSync(partial, code);
      renameSync(partial, file);
    }
    return file;
  })();
  return bundle;
}
export interface ServerProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT` once the banner is printed. */
  baseUrl: string;
  /** Milliseconds from spawn to the banner. */
  startMs: number;
  output(): string;
  /** SIGKILL, resolved once the process is gone. */
  kill9(): Promise<void>;
  /** SIGINT (a clean stop; or `signal`), resolved with the exit code once all the output is read. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 90_000,
): Promise<ServerProcess> {
  const entry = await serverBundle();
  const started = Date.now();
  const child = spawn(process.execPath, [entry], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      SESSION_SECRET: '',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: '0',
      DEMO_AUTOMATE: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  // 'close': the process is gone and its output read to the end (on 'exit' some may still be in the pipes).
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const port = /démarrée en [\d.]+ s : http:\/\/[^:]+:(\d+)/.exec(output)?.[1];
      if (port) {
        clearInterval(timer);
        resolve(`http://127.0.0.1:${port}`);
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(timer);
        child.kill('SIGKILL');
        reject(new Error(`server not ready after ${timeoutMs} ms: ${output}`));
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`server exited (${code}): ${output}`));
    });
  });
  return {
    child,
    baseUrl,
    startMs: Date.now() - started,
    output: () => output,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop(signal: NodeJS.Signals = 'SIGINT') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
