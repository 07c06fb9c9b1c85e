/**
 * The server's life: `stopping` once SIGTERM or SIGINT arrived (main.ts). /readyz answers 503 from
 * then on; long-lived answers (event streams) watch `signal` to end themselves.
 */
export interface Lifecycle {
  readonly stopping: boolean;
  readonly signal: AbortSignal;
  stop(): void;
}

export function createLifecycle(): Lifecycle {
  const controller = new AbortController();
  return {
    get stopping() {
      return controller.signal.aborted;
    },
    signal: controller.signal,
    stop: () => controller.abort(),
  };
}
