/**
 * A ratio of two operations measured in pairs: each round times one and then the other (the order
 * alternating), and the ratio is the median of the rounds' ratios. On a shared machine the load
 * moves between rows of the table by 2–5×; within a round it moves far less, so a paired ratio
 * says what the engine costs against its floor and not what the other jobs did meanwhile.
 */
import { median } from './measure.ts';

export function pairedRatio(runs: number, measured: () => unknown, floor: () => unknown): number {
  measured();
  floor();
  const ratios: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const first = i % 2 === 0 ? measured : floor;
    const second = i % 2 === 0 ? floor : measured;
    let started = performance.now();
    first();
    const a = performance.now() - started;
    started = performance.now();
    second();
    const b = performance.now() - started;
    ratios.push(i % 2 === 0 ? a / b : b / a);
  }
  return median(ratios);
}
