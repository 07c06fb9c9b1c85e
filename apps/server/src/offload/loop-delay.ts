import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * How long the request thread made work wait (docs/server.md « Partage équitable »): the event
 * loop's delay, sampled every 10 ms, reported (p50, p99, max in ms) every `intervalMs` and reset.
 */
export interface LoopDelayReport {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export function startLoopDelayReports(
  intervalMs: number,
  report: (delay: LoopDelayReport) => void,
): { stop: () => void } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const timer = setInterval(() => {
    report({
      p50Ms: ms(histogram.percentile(50)),
      p99Ms: ms(histogram.percentile(99)),
      maxMs: ms(histogram.max),
    });
    histogram.reset();
  }, intervalMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      histogram.disable();
    },
  };
}
