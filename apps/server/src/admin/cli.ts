import { openDatabase } from '../db/open.ts';
import { readEnv } from '../config/env.ts';
import { runAdmin } from './commands.ts';

// Entry of `npm run admin -- ...` (bundled to dist/cli.js): same environment as the server.
const env = readEnv();
const code = await runAdmin(process.argv.slice(2), {
  openDb: () => openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir }),
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
process.exitCode = code;
