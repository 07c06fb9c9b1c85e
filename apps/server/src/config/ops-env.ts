import type { TSupportLinks } from '@synchro/contracts';
import { httpUrlOf } from './mail-env.ts';

/** What running the server as a service reads (docs/production.md). */
export interface OpsEnv {
  /** METRICS_PORT: /metrics on this port (on HOST); none without it. */
  metricsPort: number | null;
  /** METRICS_PER_INSTALLATION=1: sync ids as a label of the connector and order metrics. */
  metricsPerInstallation: boolean;
  /** SHUTDOWN_TIMEOUT_SECONDS: how long requests in flight get after SIGTERM (default 25). */
  shutdownTimeoutMs: number;
  /** SUPPORT_REMOTE_URL, SUPPORT_SITE_URL, SUPPORT_CUSTOMER_URL, SUPPORT_EDITOR_URL. */
  supportLinks: TSupportLinks;
}

const SUPPORT_VARIABLES = {
  remote: 'SUPPORT_REMOTE_URL',
  support: 'SUPPORT_SITE_URL',
  customer: 'SUPPORT_CUSTOMER_URL',
  editor: 'SUPPORT_EDITOR_URL',
} as const;

function port(name: string, value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535)
    throw new Error(`${name} invalide : ${value} (attendu : un entier entre 1 et 65535).`);
  return n;
}

export function readOpsEnv(env: NodeJS.ProcessEnv): OpsEnv {
  const supportLinks: TSupportLinks = {};
  for (const [key, name] of Object.entries(SUPPORT_VARIABLES) as [keyof TSupportLinks, string][]) {
    const value = env[name]?.trim();
    if (value) supportLinks[key] = httpUrlOf(name, value).href;
  }
  const timeout = env.SHUTDOWN_TIMEOUT_SECONDS?.trim();
  const seconds = timeout ? Number(timeout) : 25;
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 600)
    throw new Error(`SHUTDOWN_TIMEOUT_SECONDS invalide : ${timeout} (attendu : de 1 à 600).`);
  return {
    metricsPort: port('METRICS_PORT', env.METRICS_PORT),
    metricsPerInstallation: env.METRICS_PER_INSTALLATION?.trim() === '1',
    shutdownTimeoutMs: seconds * 1000,
    supportLinks,
  };
}
