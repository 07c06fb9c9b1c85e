import { createInterface } from 'node:readline';
import { openDatabase } from '../db/open.ts';
import { readEnv } from '../config/env.ts';
import { runAdmin } from './commands.ts';

// Entry of `npm run admin -- ...` (bundled to dist/cli.js): same environment as the server.
const env = readEnv();
const code = await runAdmin(process.argv.slice(2), {
  openDb: () => openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir }),
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  // `--client-id -`: the first line typed or piped (the rest is not read).
  readStdin: () =>
    new Promise((resolve) => {
      const lines = createInterface({ input: process.stdin, terminal: false });
      let first: string | undefined;
      lines.once('line', (line) => {
        first = line;
        lines.close();
      });
      lines.once('close', () => {
        process.stdin.pause();
        resolve(first ?? '');
      });
    }),
});
process.exitCode = code;
