import { CONFIG_SECTIONS, terminalPayloadOf } from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import type { Db } from '../../src/db/types.ts';
import { SIMPLE_ENREG } from './history.ts';

/**
 * Every route of the app, read from the app itself (fastify's route tree), and what the security
 * tests need to call each one with a valid request. A route without an entry here fails those
 * tests: a new route has to say who may call it.
 */

/** The routes of an app built without a database (building one registers routes, queries nothing). */
export async function routesOfTheApp(): Promise<AppRoute[]> {
  const app = await buildApp({
    db: { kind: 'pglite' } as Db,
    sessionSecret: 'x'.repeat(32),
    logLevel: 'silent',
  });
  await app.ready();
  try {
    return appRoutes(app);
  } finally {
    await app.close();
  }
}

export interface AppRoute {
  method: string;
  url: string;
}

/** `${method} ${url}`, the key of ROUTE_SAMPLES. */
export const routeKey = (r: AppRoute) => `${r.method} ${r.url}`;

/**
 * The routes of `app` (HEAD left out: fastify adds it to every GET, same handler), parsed from
 * `printRoutes({ commonPrefix: false })`: one node a line, four characters of indentation a level,
 * a node's text appended to its parent's path, its methods in brackets.
 */
export function appRoutes(app: FastifyInstance): AppRoute[] {
  const routes: AppRoute[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    const path = (prefixes[depth - 1] ?? '') + (m[2] ?? '');
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD') routes.push({ method, url: path });
    }
  }
  return routes;
}

/** A route's path with its parameter replaced by an (encoded) id. */
export const withId = (url: string, id: string) => url.replace(/:[A-Za-z]+/, encodeURIComponent(id));

/** A route of the connector API that needs its token (its OpenAPI document is public). */
export const isConnectorRoute = (r: AppRoute) =>
  r.url.startsWith('/api/connector/') && ROUTE_SAMPLES[routeKey(r)]?.kind !== 'public';

/**
 * - `public`: no session needed (login, logout, health, the connector API's reference);
 * - `own`: the signed-in installation's own data, no id in the path;
 * - `record` / `transaction` / `mail`: one row of the signed-in installation (an import record, a
 *   transaction, an outbox email), named by `:id`;
 * - `connector`: the connector API (the token names the installation);
 * - `connector-record`: the connector API, one record named in the path.
 */
export type RouteKind =
  | 'public'
  | 'own'
  /** An event stream of the signed-in installation: never ends, so checked only for its 401s (its isolation: features/live/live.test.ts). */
  | 'stream'
  /**
   * Where a provider sends the browser back (OAuth): without a valid session, a redirect to the
   * screen with « expirée » instead of a JSON 401, nothing changed (features/drive).
   */
  | 'oauth-return'
  | 'record'
  | 'transaction'
  | 'mail'
  | 'connector'
  | 'connector-record';

export interface SampleContext {
  /** `data` of a GET of the signed-in installation's view (console routes). */
  view(path: string): Promise<Record<string, unknown>>;
}

export interface RouteSample {
  kind: RouteKind;
  /** A valid body (console saves are made from the current view). */
  body?: (ctx: SampleContext) => Promise<unknown> | unknown;
  /** A valid query string, with its `?`. */
  query?: string;
  /** The path to call when the route's has a parameter that is no record id (a version number). */
  url?: string;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- views are read through their JSON */
const view = async (ctx: SampleContext, path: string): Promise<any> => ctx.view(path);

export const ROUTE_SAMPLES: Record<string, RouteSample> = {
  'POST /api/login': { kind: 'public', body: () => ({ username: 'NOBODY01', password: 'x' }) },
  'POST /api/logout': { kind: 'public' },
  // Health of the process and readiness (docs/production.md), the connector API's reference.
  'GET /healthz': { kind: 'public' },
  'GET /readyz': { kind: 'public' },
  'GET /api/connector/v1/openapi.json': { kind: 'public' },
  'GET /docs/connector': { kind: 'public' },
  'GET /docs/connector/start.js': { kind: 'public' },
  'GET /docs/connector/page.css': { kind: 'public' },
  'GET /docs/connector/swagger-ui.css': { kind: 'public' },
  'GET /docs/connector/swagger-ui-bundle.js': { kind: 'public' },
  'GET /api/user': { kind: 'own' },
  'GET /api/dashboard': { kind: 'own' },
  'GET /api/dashboard/activity': { kind: 'own' },
  'GET /api/terminals/activity': { kind: 'own' },
  'GET /api/events': { kind: 'stream' },
  'GET /api/server-ip': { kind: 'own' },
  'POST /api/sync-automate': { kind: 'own', body: () => ({ type: 'C' }) },
  'GET /api/debug/xml-status': { kind: 'own' },
  'POST /api/debug/repair-xml': { kind: 'own' },
  'GET /api/config/sources': { kind: 'own' },
  'GET /api/config/sync-data': { kind: 'own' },
  'GET /api/config/external-links': { kind: 'own' },
  'GET /api/config/external-calendars': { kind: 'own' },
  'GET /api/config/exclusions': { kind: 'own' },
  'GET /api/config/complement': { kind: 'own' },
  'GET /api/config/planifications': { kind: 'own' },
  'GET /api/config/terminals': { kind: 'own' },
  'GET /api/config/data-lists': { kind: 'own' },
  'GET /api/plannings': { kind: 'own' },
  'POST /api/database/sources': {
    kind: 'own',
    body: async (c) => ({ sources: (await view(c, CONFIG_SECTIONS.sources.getPath)).sources }),
  },
  'POST /api/database/external-links': {
    kind: 'own',
    body: async (c) => {
      const v = await view(c, CONFIG_SECTIONS.externalLinks.getPath);
      return { Dossier_Import: v.Dossier_Import, Dossier_Export: v.Dossier_Export, Liaisons: v.Liaisons };
    },
  },
  'POST /api/database/external-calendars': {
    kind: 'own',
    body: async (c) => {
      const v = await view(c, CONFIG_SECTIONS.externalCalendars.getPath);
      return { agendaType: v.agendaType, mappings: v.mappings };
    },
  },
  'POST /api/database/exclusions': {
    kind: 'own',
    body: async (c) => ({ exclusions: (await view(c, CONFIG_SECTIONS.exclusions.getPath)).exclusions }),
  },
  'POST /api/database/complement': {
    kind: 'own',
    body: async (c) => {
      const v = await view(c, CONFIG_SECTIONS.complement.getPath);
      return {
        googleApiKey: v.googleApiKey,
        driveType: v.driveType,
        mailRapport: v.mailRapport,
        scriptComplementaire: v.scriptComplementaire,
      };
    },
  },
  'POST /api/sync-data/save': {
    kind: 'own',
    body: async (c) => ({ syncData: (await view(c, CONFIG_SECTIONS.syncData.getPath)).syncData }),
  },
  'POST /api/plannings': {
    kind: 'own',
    body: async (c) => ({ plannings: (await view(c, CONFIG_SECTIONS.planifications.getPath)).plannings }),
  },
  'PATCH /api/config/terminal': {
    kind: 'own',
    body: async (c) => {
      return terminalPayloadOf((await view(c, CONFIG_SECTIONS.terminals.getPath)).terminals[0]);
    },
  },
  'GET /api/sync-history': { kind: 'own', query: '?pageSize=100' },
  'GET /api/exports/sync-history.csv': { kind: 'own' },
  'POST /api/sync-history/bulk-status': { kind: 'own', body: () => ({ newStatus: 1, errorOnly: true }) },
  'GET /api/transaction-logs': { kind: 'own', query: '?pageSize=100' },
  'GET /api/exports/transaction-logs.csv': { kind: 'own' },
  'PATCH /api/sync-history/:id/status': { kind: 'record', body: () => ({ newStatus: -1 }) },
  'GET /api/sync-history/:id/xml': { kind: 'record' },
  'PUT /api/sync-history/:id/xml': { kind: 'record', body: () => ({ xml: SIMPLE_ENREG.replace('X', 'Y') }) },
  'GET /api/sync-history/:id/file': { kind: 'record' },
  'GET /api/sync-history/:id/log': { kind: 'record' },
  'GET /api/transaction-logs/:id': { kind: 'transaction' },
  'POST /api/mail/test-report': { kind: 'own', body: () => ({ mailDestinataire: 'admin@exemple.fr' }) },
  'GET /api/mail/outbox': { kind: 'own' },
  'GET /api/mail/outbox/:id': { kind: 'mail' },
  'GET /api/drive': { kind: 'own' },
  'POST /api/drive/connect': { kind: 'own', body: () => ({ provider: 'google' }) },
  'POST /api/drive/disconnect': { kind: 'own' },
  'GET /api/drive/callback': { kind: 'oauth-return', query: '?state=unknown&code=unknown' },
  'GET /api/configuration-history': { kind: 'own', query: '?connector=1' },
  'GET /api/configuration-history/:version/changes': {
    kind: 'own',
    url: '/api/configuration-history/1/changes',
    query: '?against=current',
  },
  'GET /api/configuration-history/:version/raw': {
    kind: 'own',
    url: '/api/configuration-history/1/raw',
    query: '?section=sources&against=current',
  },
  'POST /api/configuration-history/:version/restore': {
    kind: 'own',
    url: '/api/configuration-history/1/restore',
    body: () => ({ sections: ['sources'] }),
  },
  'GET /api/audit': { kind: 'own', query: '?pageSize=100' },
  'GET /api/exports/audit.csv': { kind: 'own' },
  'POST /api/connector/v1/automate': {
    kind: 'connector',
    body: () => ({ port: 8085, version: '6.11.23.9', machineName: 'SRV-ERP', ip: '8.8.4.4' }),
  },
  'GET /api/connector/v1/configuration': { kind: 'connector' },
  'PATCH /api/connector/v1/configuration': {
    kind: 'connector',
    body: () => ({ Info: { VersionConnecteur: '6.19.4' }, DerSynchro: { NbEnreg: '12' } }),
  },
  'POST /api/connector/v1/import-records': {
    kind: 'connector',
    body: () => ({
      records: [
        {
          IDInterne: 'FUZZ-REC-1',
          TypeEnreg: 'DocumentDEVIS',
          RefDoc: 'XX_1',
          DateHeure: '2025-11-14T09:12:00',
          NumLigne: 3,
          TypeElement: 'CrÃ©ation',
          Etat: 0,
          Enreg: SIMPLE_ENREG,
        },
      ],
    }),
  },
  'GET /api/connector/v1/import-records/queue': { kind: 'connector', query: '?limit=5' },
  'GET /api/connector/v1/drive/access-token': { kind: 'connector' },
  'POST /api/connector/v1/import-records/:IDInterne/result': {
    kind: 'connector-record',
    body: () => ({ Etat: 1, Log: 'Devis créé' }),
  },
  'POST /api/connector/v1/transactions': {
    kind: 'connector',
    body: () => ({
      transactions: [
        {
          ID: 'FUZZ-TX-1',
          Err: 0,
          DateHeureTrt: '2025-11-14T09:12:03',
          NumTransaction: '1',
          TypeDoc: 'DEVIS',
          RefDoc: 'XX_1',
          IDTablette: '815bf75ff86d94fa',
          LibelleTablette: 'pixel 8',
          Log: 'ok',
        },
      ],
    }),
  },
};

/** The sample of a route; throws when the route has none (a route nobody classified). */
export function sampleOf(route: AppRoute): RouteSample {
  const sample = ROUTE_SAMPLES[routeKey(route)];
  if (!sample) throw new Error(`no entry in ROUTE_SAMPLES for ${routeKey(route)}`);
  return sample;
}

/**
 * Tables that hold what the routes may change, each with how its rows of one installation are
 * found. Sessions, login counters and rate-limit counters are left out: reading a route refreshes
 * or counts them by design.
 */
const TABLES: Record<string, string> = {
  installations: 'SELECT t.* FROM installations t WHERE t.id = $1',
  configurations: 'SELECT t.* FROM configurations t WHERE t.installation_id = $1',
  configuration_versions: 'SELECT t.* FROM configuration_versions t WHERE t.installation_id = $1',
  import_records: 'SELECT t.* FROM import_records t WHERE t.installation_id = $1',
  import_record_files:
    'SELECT t.* FROM import_record_files t JOIN import_records r ON r.id = t.record_id WHERE r.installation_id = $1',
  transaction_logs: 'SELECT t.* FROM transaction_logs t WHERE t.installation_id = $1',
  audit_log: 'SELECT t.* FROM audit_log t WHERE t.installation_id IS NOT DISTINCT FROM $1',
  automate_registrations: 'SELECT t.* FROM automate_registrations t WHERE t.installation_id = $1',
  sync_orders: 'SELECT t.* FROM sync_orders t WHERE t.installation_id = $1',
  mail_outbox: 'SELECT t.* FROM mail_outbox t WHERE t.installation_id = $1',
  mail_state: 'SELECT t.* FROM mail_state t WHERE t.installation_id = $1',
  drive_links: 'SELECT t.* FROM drive_links t WHERE t.installation_id = $1',
  drive_authorizations: 'SELECT t.* FROM drive_authorizations t WHERE t.installation_id = $1',
};

/** A digest of every stored row of one installation (null: the rows of no installation). */
export async function dataSnapshot(db: Db, installationId: string | null): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [table, sql] of Object.entries(TABLES)) {
    if (installationId === null && table !== 'audit_log') continue;
    const [row] = await db.query<{ n: number; h: string }>(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(s::text, '|' ORDER BY s::text), '')) AS h
       FROM (${sql}) s`,
      [installationId],
    );
    out[table] = `${row?.n}:${row?.h}`;
  }
  return out;
}

/** Snapshots of several installations (and of the rows of none), keyed by installation id. */
export async function snapshotAll(db: Db, ids: readonly string[]) {
  const all: Record<string, Record<string, string>> = {};
  for (const id of ids) all[id] = await dataSnapshot(db, id);
  all.none = await dataSnapshot(db, null);
  return all;
}
