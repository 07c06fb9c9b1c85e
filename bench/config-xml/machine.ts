import { readFileSync } from 'node:fs';
import os from 'node:os';

/** One line describing the machine the numbers come from. */
export function describeMachine(): string {
  let cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line) cpu = line.slice(line.indexOf(':') + 1).trim();
  } catch {
    // Not Linux: keep os.cpus().
  }
  // The load says how much the machine was shared while measuring (2 cores, other jobs running).
  const load = (os.loadavg()[0] ?? 0).toFixed(1);
  return `nproc ${os.availableParallelism()}, ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, load average ${load} at start`;
}
