/**
 * `npm run automate -- --server URL --sync-id ID --token TOKEN [options]` (see --help and the
 * README). Runs until SIGINT or SIGTERM (or, started with an IPC channel, until its parent is
 * gone). Exit code 2 on a wrong command line.
 */
import { OptionsError, parseArgs, USAGE } from './options.ts';
import { startAutomateSim } from './sim.ts';

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs(process.argv.slice(2), process.env);
  } catch (err) {
    if (err instanceof OptionsError) {
      process.stderr.write(`${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    throw err;
  }
  if (parsed.help) {
    process.stdout.write(USAGE);
    return;
  }
  const sim = await startAutomateSim(parsed.options);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void sim.stop().then(() => process.exit(0));
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop);
  // Started by a parent with an IPC channel (the console's demo): stop when the parent is gone,
  // whatever ended it (Ctrl-C, a crash, kill -9).
  if (process.send) process.on('disconnect', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `Le simulateur n'a pas pu démarrer : ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
});
