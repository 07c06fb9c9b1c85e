import { availableParallelism } from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { DEFAULT_FAIR_SHARE } from '../config/env.ts';
import { AppError } from '../http/errors.ts';
import { workerEntry } from '../worker-entry.ts';
import { FairQueue } from './fair-queue.ts';
import { pingTask, type OffloadTask, type TaskOutcome } from './task.ts';

/** What a task's input may hand over to the worker rather than copy. */
export type Transferable = ArrayBuffer | MessagePort;

/**
 * Long work off the request thread (docs/server.md, « Travail hors du fil des requêtes »): parsing
 * and checking big connector bodies and records, diagnosing and repairing big documents. A bounded
 * pool of worker threads (piscina) runs the tasks of offload-worker.ts; the request thread only
 * waits for the answer, so the other installations' requests go on meanwhile.
 */
export interface Offload {
  /**
   * Runs `task` on `input` in a worker thread; `transfer`: buffers given to the worker (no copy),
   * and the message ports the task talks through (checked-batches.ts, streamed batches).
   */
  run<I, O>(task: OffloadTask<I, O>, input: I, transfer?: readonly Transferable[]): Promise<O>;
  /**
   * The same pool, its tasks queued as those of `installationId`: the pool takes the waiting
   * installations' tasks in turn (offload/fair-queue.ts), so that one's many big tasks do not
   * make another's one wait behind them all. A task from the pool itself is the server's own.
   */
  for(installationId: string): Offload;
  /** Starts a thread and waits until it answers (the first big request then pays nothing). */
  warm(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Below this many bytes of input a task runs on the request thread: sending it to a worker costs
 * more (a structured clone each way, a thread hop) than the work itself.
 */
export const OFFLOAD_MIN_BYTES = 512 * 1024;

function valueOf<O>(outcome: TaskOutcome<O>): O {
  if (outcome.ok) return outcome.value;
  const { status, message, code, headers } = outcome.error;
  throw new AppError(status, message, code, headers);
}

/** Every task on the calling thread (the admin command; tests of a module's logic alone). */
export const inlineOffload: Offload = {
  run: async (task, input) => task.run(input),
  for: () => inlineOffload,
  warm: async () => {},
  close: async () => {},
};

/** Runs a task on this thread when its input is small (`size` below OFFLOAD_MIN_BYTES), else in the pool. */
export async function runBySize<I, O>(
  offload: Offload,
  task: OffloadTask<I, O>,
  input: I,
  size: number,
): Promise<O> {
  return size < OFFLOAD_MIN_BYTES ? task.run(input) : offload.run(task, input);
}

/**
 * Runs a task on a request body: on this thread when the body is small (OFFLOAD_MIN_BYTES), else
 * in the pool, the body's bytes handed over (the caller must not read them afterwards).
 */
export async function runOnBody<I extends { body: Uint8Array }, O>(
  offload: Offload,
  task: OffloadTask<I, O>,
  input: I,
): Promise<O> {
  if (input.body.byteLength < OFFLOAD_MIN_BYTES) return task.run(input);
  const { bytes, buffer } = transferable(input.body);
  return offload.run(task, { ...input, body: bytes }, [buffer]);
}

/** Threads of the pool: all cores but the request thread's, at least one, at most four. */
export function defaultOffloadThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/**
 * No heap limit of their own for the threads: a worker that runs out of its resourceLimits may
 * take the whole process down with it (seen: V8's fatal out-of-memory, not the worker's error),
 * so the memory budget of bodies (offload/byte-budget.ts) is what bounds the work instead.
 */
export interface OffloadPoolSettings {
  threads: number;
  /** Tasks of one installation waiting for a thread, beyond which the next is refused (503). */
  queuedPerInstallation?: number;
}

/** The owner of the tasks given to the pool itself (admin commands, the server's own work). */
const SERVER_OWNER = '';

/** A pool of `threads` worker threads, started at the first task, idle threads ended after 30 s. */
export function createOffloadPool(settings: OffloadPoolSettings): Offload {
  let pool: Piscina | null = null;
  const start = (): Piscina => {
    const { filename, execArgv } = workerEntry('offload-worker');
    pool = new Piscina({
      filename,
      execArgv,
      minThreads: 0,
      maxThreads: settings.threads,
      idleTimeout: 30_000,
    });
    return pool;
  };
  // The pool never queues: at most `threads` tasks are given to it, the others wait here, in
  // turn by installation.
  const queue = new FairQueue(
    settings.threads,
    settings.queuedPerInstallation ?? DEFAULT_FAIR_SHARE.offloadQueuePerInstallation,
  );
  const runAs = async <I, O>(
    owner: string,
    task: OffloadTask<I, O>,
    input: I,
    transfer: readonly Transferable[],
  ): Promise<O> => {
    const outcome = (await queue.submit(owner, () =>
      (pool ?? start()).run({ task: task.name, input }, { transferList: [...transfer] }),
    )) as TaskOutcome<O>;
    return valueOf(outcome);
  };
  const scoped = (owner: string): Offload => ({
    run: (task, input, transfer = []) => runAs(owner, task, input, transfer),
    for: scoped,
    warm: offload.warm,
    close: offload.close,
  });
  const offload: Offload = {
    run: (task, input, transfer = []) => runAs(SERVER_OWNER, task, input, transfer),
    for: scoped,
    async warm() {
      await offload.run(pingTask, null);
    },
    async close() {
      const running = pool;
      pool = null;
      await running?.destroy();
    },
  };
  return offload;
}

/**
 * The ArrayBuffer of `bytes` when it can be handed to a worker without a copy (the view covers it
 * whole), else a copy's: either way the caller must not read `bytes` afterwards.
 */
export function transferable(bytes: Uint8Array): { bytes: Uint8Array; buffer: ArrayBuffer } {
  const own =
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength &&
    bytes.buffer instanceof ArrayBuffer;
  const view = own ? bytes : new Uint8Array(bytes);
  return { bytes: view, buffer: view.buffer as ArrayBuffer };
}

let shared: Offload | null = null;

/**
 * The pool of apps built without their own (tests): one for the whole process, so that tests
 * building many apps start threads once. The server makes its own (main.ts, OFFLOAD_THREADS).
 */
export function sharedOffloadPool(): Offload {
  shared ??= createOffloadPool({ threads: defaultOffloadThreads() });
  return shared;
}
