/** Retries of a failed call with exponential backoff. */

export interface RetryPolicy {
  /** Attempts in all (1 = no retry). */
  attempts: number;
  /** Delay before the first retry, doubled at each next one. */
  baseDelayMs: number;
  /** Upper bound of one delay. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 500, maxDelayMs: 10_000 };

/** A failure that says whether trying again may help, and after how long at least. */
export interface RetryableFailure {
  retryable: boolean;
  retryAfterMs?: number;
}

/** Waits `ms`, or less when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * The delay before retry number `retry` (1-based), with ±20 % jitter; never less than the
 * server's Retry-After (`atLeastMs`), even beyond the policy's longest delay.
 */
export function backoffDelay(policy: RetryPolicy, retry: number, atLeastMs = 0): number {
  const base = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  const jittered = Math.min(policy.maxDelayMs, base * (0.8 + 0.4 * Math.random()));
  return Math.max(jittered, atLeastMs);
}

/**
 * Runs `call` until it succeeds, fails with a non-retryable error, the attempts are spent or
 * `signal` aborts; `onRetry` hears each failure that is retried. The last error is thrown.
 */
export async function withRetry<T>(
  policy: RetryPolicy,
  call: () => Promise<T>,
  classify: (err: unknown) => RetryableFailure,
  onRetry: (err: unknown, retry: number, delayMs: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      const failure = classify(err);
      if (!failure.retryable || attempt >= policy.attempts || signal?.aborted) throw err;
      const delay = backoffDelay(policy, attempt, failure.retryAfterMs);
      onRetry(err, attempt, delay);
      await sleep(delay, signal);
    }
  }
}
