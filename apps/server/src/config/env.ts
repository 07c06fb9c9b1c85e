import { isIP } from 'node:net';
import { resolve } from 'node:path';

/** Everything the server and the admin command read from the environment (docs/server.md). */
export interface ServerEnv {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  sessionSecret: string | undefined;
  publicIp: string | undefined;
  logLevel: string;
  /** Create the demo installation on PostgreSQL too (it always is on a fresh embedded database). */
  demo: boolean;
  /** fastify `trustProxy`: honour X-Forwarded-* from these proxies (a hop count or addresses). */
  trustProxy: false | number | string;
  /** Extra origins allowed to send mutating requests (a dev server on another port). */
  allowedOrigins: string[];
  /** Networks the automate may register at and receive orders on (CIDR list; default policy when unset). */
  automateNetworks: string | undefined;
  /** Start the automate simulator for the demo installation (embedded database); `DEMO_AUTOMATE=0` stops it. */
  demoAutomate: boolean;
}

const nonEmpty = (v: string | undefined) => (v && v.trim() !== '' ? v.trim() : undefined);

const TRUST_PROXY_WORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyEntry(entry: string): boolean {
  if (TRUST_PROXY_WORDS.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: off, a hop count (the proxies in front of the server), or the proxies' addresses
 * and networks. `true` (believe every X-Forwarded-For, written by anyone) is refused.
 */
export function parseTrustProxy(v: string | undefined): false | number | string {
  const value = nonEmpty(v);
  if (!value || value === 'false' || value === '0') return false;
  if (value.toLowerCase() === 'true') {
    throw new Error(
      'TRUST_PROXY=true refusé : tout client pourrait alors choisir son adresse (X-Forwarded-For). ' +
        'Indiquez le nombre de proxys devant le serveur (ex. 1) ou leurs adresses (ex. 10.0.0.5,10.1.0.0/16). ' +
        '(TRUST_PROXY=true is refused: give the number of proxies or their addresses.)',
    );
  }
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((e) => e.trim());
  const wrong = entries.filter((e) => !isProxyEntry(e));
  if (wrong.length > 0) {
    throw new Error(
      `TRUST_PROXY invalide : ${wrong.map((e) => (e === '' ? 'entrée vide' : `« ${e} »`)).join(', ')} (attendu : un nombre de proxys, ` +
        'ou des adresses IP ou réseaux CIDR séparés par des virgules, ou loopback, linklocal, uniquelocal).',
    );
  }
  return entries.join(',');
}

export function readEnv(env: NodeJS.ProcessEnv = process.env): ServerEnv {
  const port = Number(nonEmpty(env.PORT) ?? 5000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT invalide : ${env.PORT} (attendu : un entier entre 0 et 65535).`);
  }
  return {
    port,
    host: nonEmpty(env.HOST) ?? '127.0.0.1',
    dataDir: resolve(nonEmpty(env.DATA_DIR) ?? './data'),
    databaseUrl: nonEmpty(env.DATABASE_URL),
    sessionSecret: nonEmpty(env.SESSION_SECRET),
    publicIp: nonEmpty(env.PUBLIC_IP),
    logLevel: nonEmpty(env.LOG_LEVEL) ?? 'info',
    demo: env.DEMO === '1' || env.DEMO === 'true',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    allowedOrigins: (nonEmpty(env.ALLOWED_ORIGINS) ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    automateNetworks: nonEmpty(env.AUTOMATE_NETWORKS),
    demoAutomate: !['0', 'false', 'non'].includes((nonEmpty(env.DEMO_AUTOMATE) ?? '1').toLowerCase()),
  };
}
