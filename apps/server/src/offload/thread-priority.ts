import { getPriority, setPriority } from 'node:os';

/**
 * The nice value of the offload threads: long work yields the cores to the request thread, so
 * under contention the other installations' answers come first and the big batch waits
 * (docs/server.md, « Partage équitable »). Measured with bench/noisy-neighbour on 2 cores:
 * B's p99 on PostgreSQL while A attacks went from 125 to 65 ms, A's throughput unchanged.
 */
export const OFFLOAD_NICE = 10;

/**
 * Lowers the calling thread's priority. On Linux a thread's nice value is its own (setpriority
 * on 0 changes the calling thread only), so the request thread keeps the process's priority.
 */
export function yieldCoresToRequests(): void {
  try {
    setPriority(0, OFFLOAD_NICE);
  } catch {
    // not allowed or not supported here: the thread keeps the process's priority
  }
}

/** The calling thread's nice value (what pingTask answers, to check it from the request thread). */
export function threadNice(): number {
  return getPriority(0);
}
