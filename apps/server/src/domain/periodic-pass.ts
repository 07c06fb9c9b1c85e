export interface PeriodicPass {
  /** No new pass starts; resolves once the one under way (if any) has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` after `firstDelayMs`, then every `intervalMs`, never two at once (a pass still
 * running makes the next tick a no-op). Its result or its error goes to `report`. The timers do
 * not keep the process alive.
 */
export function startPeriodicPass<T>(
  pass: (stopped: () => boolean) => Promise<T>,
  report: (result: T | Error) => void,
  firstDelayMs: number,
  intervalMs: number,
): PeriodicPass {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = pass(() => stopped)
      .then(report)
      .catch((err: unknown) => report(err instanceof Error ? err : new Error(String(err))))
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(run, firstDelayMs);
  const timer = setInterval(run, intervalMs);
  first.unref();
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
