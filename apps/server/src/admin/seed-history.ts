import { randomBytes } from 'node:crypto';
import { AUDIT_ACTIONS } from '@synchro/contracts';
import type { Db } from '../db/types.ts';
import { createInstallation } from '../domain/installation-admin.ts';
import { findInstallationBySyncId, requireInstallation, type Installation } from '../domain/installations.ts';
import { AppError } from '../http/errors.ts';
import { recordAudit } from '../domain/audit.ts';

/**
 * `seed-history`: realistic import records and transactions for speed measurements and demos,
 * made by the database itself (set-based INSERT … SELECT over generate_series, one statement per
 * chunk), so that a million rows take minutes, not hours, on both databases. Rows are evenly
 * spread over the last three years (the newest rows inserted last, as the connector appends them);
 * about 1 % are errors; some records carry a GED document or a produced file; logs are in the
 * connector's text convention like the connector's own.
 *
 * It writes only into bench installations (docs/history.md, Seed: `create-installation --bench`,
 * the demo, the neighbours it creates) unless forced, and never a record with Etat 0: that is the
 * connector's import queue, which a real connector would import into the customer's ERP.
 */

export interface SeedHistoryOptions {
  syncId: string;
  records: number;
  transactions: number;
  /** Installations in all: `syncId` and K−1 neighbours (`<syncId>V002`…), created when missing. */
  installations: number;
  /**
   * Writes into installations that are not bench ones too (`--force`); never into an import queue
   * all the same.
   */
  force?: boolean;
  /** Audit journal rows (docs/audit.md, Seed); neighbours get 1 % as many. */
  audit?: number;
  /** Rows of each kind for each neighbour (`--neighbour-rows`); default 1 % of `records` / `transactions`. */
  neighbourShare?: number;
  /** Rows per INSERT statement (50 000). */
  chunk?: number;
  now?: Date;
  /** Progress lines (stdout of the admin command). */
  progress?: (line: string) => void;
}

export interface SeedHistoryResult {
  syncId: string;
  installations: number;
  records: number;
  transactions: number;
  audit: number;
  seconds: number;
}

/** The audit rows are spread over this many days: within the default retention (400 days). */
export const SEED_AUDIT_DAYS = 390;

/** Three years, in seconds: the span of the generated dates. */
export const SEED_SPAN_SECONDS = 3 * 365 * 24 * 3600;

const DEFAULT_CHUNK = 50_000;

// Connector convention (UTF-8 bytes read as Latin-1) of the accented words the logs use.
const IMPORTE = 'importÃ©';
const REUSSI = 'rÃ©ussi';
const ECHEC = 'Ã©chec';
const CREATION = 'Création';

/**
 * One chunk of records for one installation: rows `i` in [$2, $3] of $4, dated evenly from
 * `$5 − span` to `$5`. $6 is the run's tag (ids stay unique when the command runs again).
 */
const RECORDS_SQL = `
WITH g AS (
  SELECT i, random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5, random() AS r6
  FROM generate_series($2::int, $3::int) AS i
), t AS (
  SELECT i, r2, r3, r4, r5, r6,
    CASE WHEN r1 < 0.34 THEN 'DocumentDEVIS' WHEN r1 < 0.58 THEN 'Intervention' WHEN r1 < 0.70 THEN 'GED'
         WHEN r1 < 0.82 THEN 'TiersCP' WHEN r1 < 0.91 THEN 'DocumentBL' ELSE 'DocumentFACTURE' END AS type_enreg,
    date_trunc('milliseconds', $5::timestamptz - make_interval(secs => ${SEED_SPAN_SECONDS} * (1 - (i + r2) / ($4::float8 + 1)))) AS at,
    CASE WHEN r3 < 0.01 THEN -1 ELSE 1 END AS etat,
    lpad(to_hex(abs(hashint8(i::bigint + $3::bigint * 7919))), 8, '0') || lpad(to_hex(i), 8, '0') AS hex
  FROM g
), r AS (
  SELECT t.*,
    CASE type_enreg
      WHEN 'TiersCP' THEN 'CP' || lpad((floor(r4 * 999999))::int::text, 6, '0')
      WHEN 'GED' THEN 'GED_' || lpad((floor(r4 * 99999999))::int::text, 8, '0')
      WHEN 'Intervention' THEN 'INT' || lpad((floor(r4 * 9999999))::int::text, 7, '0')
      ELSE 'XX_' || lpad((floor(r4 * 999999999999))::bigint::text, 12, '0') END AS ref_doc,
    CASE WHEN type_enreg IN ('DocumentDEVIS', 'DocumentBL', 'DocumentFACTURE') THEN 1 + floor(r5 * 12)::int ELSE 0 END AS num_ligne,
    CASE WHEN r5 < 0.7 THEN '${CREATION}' WHEN r5 < 0.95 THEN 'Modification' ELSE 'Suppression' END AS type_element,
    'Tablette-' || (1 + floor(r2 * 24)::int) AS device,
    to_char(at AT TIME ZONE 'Europe/Paris', 'YYYYMMDDHH24MISSMS') AS stamp,
    type_enreg IN ('DocumentDEVIS', 'DocumentBL', 'DocumentFACTURE') AND r6 < 0.03 AS has_file
  FROM t
), ins AS (
  INSERT INTO import_records
    (installation_id, id_interne, type_enreg, ref_doc, date_heure, num_ligne, type_element, etat, log, enreg, has_file)
  SELECT $1::uuid,
    'NUXI' || upper(left(type_enreg, 3)) || 'A' || $6 || hex,
    type_enreg, ref_doc, at, num_ligne, type_element, etat,
    CASE etat
      WHEN 1 THEN 'Import ${REUSSI} : ' || type_enreg || ' ' || ref_doc || E' ${IMPORTE} dans l''ERP.'
      WHEN -1 THEN 'Import en ${ECHEC} : ' || type_enreg || ' ' || ref_doc || E'\\r\\n' ||
        (ARRAY['Client inconnu dans l''ERP : crÃ©ez la fiche avant l''import.',
               'Article introuvable ou en sommeil.',
               'Document dÃ©jÃ  ${IMPORTE} (rÃ©fÃ©rence en double).',
               'DÃ©lai dÃ©passÃ© pendant l''Ã©criture dans la base.'])[1 + floor(r5 * 4)::int]
      ELSE '' END,
    '<SyncNuxiDev><DateHeureExport>' || stamp || '</DateHeureExport><Device>' || device ||
      '</Device><Table>' || CASE type_enreg WHEN 'GED' THEN 'ged' ELSE lower(type_enreg) END ||
      '</Table><NDEvenement>A</NDEvenement><Enregistrement><DateCreation>' || stamp ||
      '</DateCreation><IDInterne>' || ref_doc || '</IDInterne><Code>' || ref_doc ||
      '</Code><FacturationNom>SociÃ©tÃ© ' || (1 + floor(r3 * 5000)::int) ||
      '</FacturationNom><Facturation_Ville>SAINT ETIENNE</Facturation_Ville><MontantNetHT>' ||
      to_char(r4 * 5000, 'FM99990.00') || '</MontantNetHT>' ||
      CASE WHEN type_enreg = 'GED'
        THEN '<NomDocument>Photo chantier ' || ref_doc || '.png</NomDocument><BinaireDocument>iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==</BinaireDocument>'
        ELSE '' END ||
      '</Enregistrement></SyncNuxiDev>',
    has_file
  FROM r
  ON CONFLICT (installation_id, id_interne) DO NOTHING
  RETURNING id, installation_id, ref_doc, has_file
)
INSERT INTO import_record_files (record_id, installation_id, name, size, content)
SELECT id, installation_id, ref_doc || '.pdf', 68,
  decode('JVBERi0xLjQKMSAwIG9iago8PC9UeXBlL0NhdGFsb2c+PgplbmRvYmoKdHJhaWxlcjw8L1Jvb3QgMSAwIFI+PgolJUVPRgo=', 'base64')
FROM ins WHERE has_file`;

/** One chunk of transactions, same parameters ($6: the run's tag). */
const TRANSACTIONS_SQL = `
WITH g AS (
  SELECT i, random() AS r1, random() AS r2, random() AS r3, random() AS r4
  FROM generate_series($2::int, $3::int) AS i
), t AS (
  SELECT i, r2, r3, r4,
    (ARRAY['DEVIS', 'INTERVENTION', 'TIERS', 'GED', 'ARTICLES', 'CLIENTS', 'PLANNING', 'STOCK', 'DOCUMENTS'])[1 + floor(r1 * 9)::int] AS type_doc,
    1 + floor(r2 * 24)::int AS terminal,
    date_trunc('milliseconds', $5::timestamptz - make_interval(secs => ${SEED_SPAN_SECONDS} * (1 - (i + r2) / ($4::float8 + 1)))) AS at,
    r3 < 0.01 AS failed
  FROM g
)
INSERT INTO transaction_logs
  (installation_id, tx_id, err, date_heure_trt, num_transaction, type_doc, ref_doc, id_tablette, libelle_tablette, log)
SELECT $1::uuid, 'T-' || $6 || '-' || i, failed::int, at, i::text, type_doc,
  CASE WHEN type_doc IN ('DEVIS', 'INTERVENTION', 'GED', 'TIERS') THEN 'XX_' || lpad((floor(r4 * 999999999999))::bigint::text, 12, '0') ELSE '' END,
  lpad(to_hex(abs(hashint4(terminal + 17))), 8, '0') || lpad(to_hex(abs(hashint4(terminal + 31))), 8, '0'),
  (ARRAY['pixel 8', 'Galaxy Tab A8', 'iPad 9', 'Galaxy S23', 'TC52 Zebra', 'ThinkPad T14'])[1 + terminal % 6] || ' ' || terminal,
  'RÃ©ception ' || type_doc || ' depuis le terminal ' || terminal || E'\\r\\n' ||
  'ContrÃ´le du lot : ' || (1 + floor(r4 * 40)::int) || E' Ã©lÃ©ments\\r\\n' ||
  CASE WHEN failed
    THEN E'Erreur : dÃ©lai dÃ©passÃ© pendant la rÃ©ception (connexion 4G instable).\\r\\n' ||
         repeat(E'  Ã  Connecteur.Synchro.Recevoir(Lot) ligne 412\\r\\n', 1 + floor(r4 * 60)::int)
    ELSE E'Transaction terminÃ©e sans erreur.' END
FROM t
ON CONFLICT (installation_id, tx_id) DO NOTHING`;

/** The French label of an action (AUDIT_ACTIONS), for the seeded rows' search text. */
const AUDIT_LABEL_SQL = `CASE action ${Object.entries(AUDIT_ACTIONS)
  .map(([action, { label }]) => `WHEN '${action}' THEN '${label.replace(/'/g, "''")}'`)
  .join(' ')} ELSE action END`;

/**
 * One chunk of audit rows, same parameters as the records ($6 unused but for the shape): the mix of
 * a real installation (the connector's writes a third, its automate, sign-ins with some failures,
 * saves of every section, sync orders, record state changes, exports), dated evenly over
 * SEED_AUDIT_DAYS, with the kind, outcome and folded search text recordAudit writes.
 */
const AUDIT_SQL = `
WITH g AS (
  SELECT i, random() AS r1, random() AS r2, random() AS r3
  FROM generate_series($2::int, $3::int) AS i
), t AS (
  SELECT i, r2, r3,
    date_trunc('milliseconds', $5::timestamptz - make_interval(secs => ${SEED_AUDIT_DAYS} * 86400 * (1 - (i + r2) / ($4::float8 + 1)))) AS at,
    CASE WHEN r1 < 0.34 THEN 'config.connector-write' WHEN r1 < 0.40 THEN 'automate.register'
         WHEN r1 < 0.55 THEN 'login.success' WHEN r1 < 0.58 THEN 'login.failure' WHEN r1 < 0.70 THEN 'logout'
         WHEN r1 < 0.80 THEN 'config.save' WHEN r1 < 0.88 THEN 'sync-automate.request'
         WHEN r1 < 0.95 THEN 'history.status' WHEN r1 < 0.98 THEN 'import-history.export' ELSE 'config.restore' END AS action,
    (ARRAY['sources', 'externalLinks', 'externalCalendars', 'syncData', 'exclusions', 'complement', 'planifications', 'terminal'])[1 + floor(r3 * 8)::int] AS section,
    '192.0.2.' || (1 + floor(r2 * 250)::int) AS address
  FROM g
), d AS (
  SELECT t.*,
    CASE action
      WHEN 'config.connector-write' THEN jsonb_build_object('parts', jsonb_build_array('DerSynchro', 'Sources'), 'fromVersion', i, 'version', i + 1)
      WHEN 'config.save' THEN jsonb_build_object('section', section, 'fromVersion', i, 'version', i + 1)
      WHEN 'config.restore' THEN jsonb_build_object('sections', jsonb_build_array(section), 'restoredVersion', greatest(1, i - 5), 'version', i + 1)
      WHEN 'sync-automate.request' THEN jsonb_build_object('type', (ARRAY['C', 'R', 'I'])[1 + floor(r3 * 3)::int], 'outcome', CASE WHEN r2 < 0.9 THEN 'accepted' ELSE 'unreachable' END)
      WHEN 'history.status' THEN jsonb_build_object('IDInterne', 'NUXIDEVA' || lpad(to_hex(i), 12, '0'), 'from', -1, 'to', 0)
      WHEN 'import-history.export' THEN jsonb_build_object('errorOnly', r3 < 0.5, 'search', NULL)
      WHEN 'automate.register' THEN jsonb_build_object('ip', '203.0.113.10', 'port', 8085, 'version', '6.11.23.9', 'machineName', 'SRV-ERP')
      ELSE NULL END AS details,
    CASE WHEN action IN ('config.connector-write', 'automate.register') THEN 'connector'
         WHEN action = 'login.failure' THEN 'anonymous' ELSE 'user' END AS actor,
    CASE WHEN action LIKE 'login%' OR action = 'logout' THEN 'connexion'
         WHEN action IN ('config.connector-write', 'automate.register') THEN 'connecteur'
         WHEN action LIKE 'config.%' THEN 'configuration' WHEN action = 'sync-automate.request' THEN 'synchronisation'
         WHEN action = 'history.status' THEN 'historique' ELSE 'export' END AS kind,
    CASE WHEN action = 'login.failure' OR (action = 'sync-automate.request' AND r2 >= 0.9) THEN 'failure' ELSE 'success' END AS outcome
  FROM t
)
INSERT INTO audit_log (installation_id, sync_id, actor, action, address, details, kind, outcome, search_text, at)
SELECT $1::uuid, $6, actor, action, address, details, kind, outcome,
  history_fold(${AUDIT_LABEL_SQL} || chr(31) || address || chr(31) || coalesce(details::text, '')), at
FROM d`;

/** Refuses an installation that is not a bench one, unless forced. */
function assertBench(installation: Installation, force: boolean): void {
  if (installation.bench || force) return;
  throw new AppError(
    409,
    `L'installation ${installation.syncId} n'est pas une installation de banc d'essai : seed-history ` +
      `n'y écrit pas de lignes générées, qui se mêleraient à son historique réel. Utilisez une ` +
      `installation créée avec create-installation --bench, ou ajoutez --force pour y écrire quand ` +
      `même (jamais dans sa file d'import).`,
    'NOT_A_BENCH',
  );
}

async function installationsFor(db: Db, syncId: string, count: number, force: boolean) {
  const neighbourIds = Array.from(
    { length: count - 1 },
    (_, i) => `${syncId}V${String(i + 2).padStart(3, '0')}`,
  );
  const main = await requireInstallation(db, syncId);
  const found = await Promise.all(neighbourIds.map((id) => findInstallationBySyncId(db, id)));
  // Every one checked before anything is created or written: a refusal leaves them as they were.
  for (const installation of [main, ...found]) if (installation) assertBench(installation, force);
  const out = [main];
  for (const [k, neighbourId] of neighbourIds.entries()) {
    out.push(
      found[k] ??
        (
          await createInstallation(db, {
            syncId: neighbourId,
            clientId: randomBytes(18).toString('base64url'),
            bench: true,
          })
        ).installation,
    );
  }
  return out;
}

async function seedRows(
  db: Db,
  sql: string,
  installationId: string,
  total: number,
  chunk: number,
  now: Date,
  tag: string,
  onChunk: (done: number) => void,
) {
  for (let first = 1; first <= total; first += chunk) {
    const last = Math.min(total, first + chunk - 1);
    await db.query(sql, [installationId, first, last, total, now.toISOString(), tag]);
    onChunk(last);
  }
}

export async function seedHistory(db: Db, options: SeedHistoryOptions): Promise<SeedHistoryResult> {
  const started = performance.now();
  const now = options.now ?? new Date();
  const chunk = options.chunk ?? DEFAULT_CHUNK;
  const tag = Math.floor(now.getTime() / 1000).toString(16);
  const progress = options.progress ?? (() => {});
  const force = options.force ?? false;
  const installations = await installationsFor(db, options.syncId, options.installations, force);
  let records = 0;
  let transactions = 0;
  let audit = 0;
  for (const [k, installation] of installations.entries()) {
    const share = (n: number) => (k === 0 ? n : (options.neighbourShare ?? Math.max(1, Math.round(n / 100))));
    const nRecords = options.records > 0 ? share(options.records) : 0;
    const nTransactions = options.transactions > 0 ? share(options.transactions) : 0;
    const report = (kind: string, n: number) => (done: number) => {
      if (k === 0 || done === n) progress(`${installation.syncId} ${kind} ${done}/${n}`);
    };
    await seedRows(db, RECORDS_SQL, installation.id, nRecords, chunk, now, tag, report('records', nRecords));
    await seedRows(
      db,
      TRANSACTIONS_SQL,
      installation.id,
      nTransactions,
      chunk,
      now,
      tag,
      report('transactions', nTransactions),
    );
    const nAudit = options.audit ? share(options.audit) : 0;
    await seedRows(
      db,
      AUDIT_SQL,
      installation.id,
      nAudit,
      chunk,
      now,
      installation.syncId,
      report('audit', nAudit),
    );
    records += nRecords;
    transactions += nTransactions;
    audit += nAudit;
  }
  // Fresh statistics (the planner chooses between the search and the date indexes with them) and
  // a visibility map (index-only counts). VACUUM runs outside any transaction, one table at a time.
  for (const table of ['import_records', 'import_record_files', 'transaction_logs', 'audit_log']) {
    await db.exec(`VACUUM (ANALYZE) ${table}`);
  }
  const main = installations[0];
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  await recordAudit(db, {
    installationId: main?.id ?? null,
    syncId: options.syncId,
    actor: 'admin',
    action: 'history.seed',
    details: {
      records,
      transactions,
      audit,
      installations: installations.length,
      seconds,
      ...(force ? { force } : {}),
    },
  });
  return {
    syncId: options.syncId,
    installations: installations.length,
    records,
    transactions,
    audit,
    seconds,
  };
}
