/**
 * Registration and heartbeat (connector-api.md `POST /automate`): at start, then at every
 * interval, like the real service. A report that fails after its retries is logged and tried
 * again sooner (the console may still be starting).
 */
import type { ConnectorApiClient } from './api-client.ts';
import type { TRegistrationBody } from './api-types.ts';
import type { Logger } from './log.ts';

export interface Heartbeat {
  /** Resolves after the first report (successful or not). */
  first: Promise<void>;
  stop(): void;
}

export function startHeartbeat(
  client: ConnectorApiClient,
  body: TRegistrationBody,
  intervalMs: number,
  retryAfterFailureMs: number,
  log: Logger,
): Heartbeat {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** Reports once; true when the console took the report. */
  const report = async (): Promise<boolean> => {
    try {
      const answer = await client.register(body);
      log.info('register', `automate enregistré à ${answer.ip}:${answer.port}`);
      return true;
    } catch (err) {
      if (!stopped)
        log.warn(
          'register',
          `enregistrement refusé ou impossible : ${err instanceof Error ? err.message : String(err)}`,
        );
      return false;
    }
  };
  const next = (ok: boolean) => {
    if (stopped) return;
    timer = setTimeout(() => void report().then(next), ok ? intervalMs : retryAfterFailureMs);
    timer.unref();
  };
  const first = report().then(next);
  return {
    first,
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
