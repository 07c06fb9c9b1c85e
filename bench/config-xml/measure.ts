/** Timing helpers: median of N runs after one warm-up. */

export interface TTiming {
  medianMs: number;
  /** Median CPU time of the process per run (process.cpuUsage: user + system, every thread). */
  cpuMedianMs: number;
  runs: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function time(runs: number, task: () => unknown): TTiming {
  task();
  const samples: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const cpuStarted = process.cpuUsage();
    const started = performance.now();
    task();
    samples.push(performance.now() - started);
    const used = process.cpuUsage(cpuStarted);
    cpu.push((used.user + used.system) / 1000);
  }
  return { medianMs: median(samples), cpuMedianMs: median(cpu), runs };
}

export function formatMs(ms: number | null): string {
  if (ms === null) return 'n/a';
  if (ms < 10) return ms.toFixed(2);
  if (ms < 100) return ms.toFixed(1);
  return ms.toFixed(0);
}
