import { afterEach, describe, expect, it, vi } from 'vitest';
import { startPeriodicPass } from './periodic-pass.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('startPeriodicPass', () => {
  it('runs after the first delay then every interval, never two passes at once; errors are reported; stop waits for the pass under way', async () => {
    vi.useFakeTimers();
    const reports: unknown[] = [];
    let started = 0;
    let release: () => void = () => {};
    const pass = () => {
      started += 1;
      if (started === 2) return Promise.reject(new Error('base indisponible'));
      return new Promise<number>((resolve) => (release = () => resolve(started)));
    };
    const job = startPeriodicPass(pass, (r) => reports.push(r), 1_000, 1_500);
    await vi.advanceTimersByTimeAsync(999);
    expect(started).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toBe(1);
    await vi.advanceTimersByTimeAsync(2_000); // ticks at 1.5 s and 3 s: still running, no second pass
    expect(started).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(1_500); // 4.5 s
    expect(started).toBe(2);
    await vi.advanceTimersByTimeAsync(1_500); // 6 s
    expect(started).toBe(3);
    expect(reports[0]).toBe(1);
    expect(reports[1]).toBeInstanceOf(Error);
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    release();
    await stopping;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(started).toBe(3);
    expect(reports).toEqual([1, expect.any(Error), 3]);
  });
});
