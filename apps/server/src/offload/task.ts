import { threadNice } from './thread-priority.ts';
import { AppError } from '../http/errors.ts';

/**
 * A pure function that may run in a worker thread (offload/pool.ts): its input and output cross
 * threads by structured clone (plain data, Date, Uint8Array; no class instances, no functions).
 * It may throw AppError like any server code: the pool carries the error back.
 */
export interface OffloadTask<I, O> {
  /** The key of the task in the worker's registry (offload-worker.ts). */
  readonly name: string;
  readonly run: (input: I) => O;
  /** Buffers of the output moved to the request thread rather than copied. */
  readonly transferOut?: (output: O) => ArrayBuffer[];
}

export function defineTask<I, O>(
  name: string,
  run: (input: I) => O,
  transferOut?: (output: O) => ArrayBuffer[],
): OffloadTask<I, O> {
  return transferOut ? { name, run, transferOut } : { name, run };
}

/** A thread answering it is up (Offload.warm); its answer: the thread's nice value. */
export const pingTask = defineTask('offload.ping', (_input: null) => threadNice());

/** What crosses back from a worker: the value, or the AppError the task threw, as plain data. */
export type TaskOutcome<O> =
  | { ok: true; value: O }
  | { ok: false; error: { status: number; message: string; code?: string; headers: Record<string, string> } };

/** Runs a task and turns an AppError into plain data (the worker's side of the crossing: offload-worker.ts). */
export function outcomeOf<I, O>(task: OffloadTask<I, O>, input: I): TaskOutcome<O> {
  try {
    return { ok: true, value: task.run(input) };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const error = { status: err.status, message: err.message, headers: err.headers };
    return { ok: false, error: err.code === undefined ? error : { ...error, code: err.code } };
  }
}
