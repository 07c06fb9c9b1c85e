import {
  CONFIG_HISTORY_MESSAGES,
  HISTORY_SECTION_KEYS,
  type TConfigChanges,
  type TConfigHistoryPage,
  type TConfigHistoryQuery,
  type TConfigRawDiff,
  type TConfigVersionRow,
  type TConnectorFold,
  type TDisplayTimeZone,
  type THistorySection,
  type TRestoreResponse,
  type TVersionAuthor,
} from '@synchro/contracts';
import {
  ConfigXmlError,
  editScope,
  KIND_OF_SECTION,
  restoreScopes,
  sectionChanges,
  terminalCount,
  type ConfigDocument,
} from '@synchro/config-xml';
import type { VersionRetention } from '../../config/env.ts';
import type { Db, Queryable } from '../../db/types.ts';
import { HAS_TEXT } from '../../domain/configuration-texts.ts';
import { recordAudit } from '../../domain/audit.ts';
import {
  commitVersion,
  conflict,
  getConfiguration,
  getVersionText,
  parseStored,
  prepareVersion,
  writeConfiguration,
} from '../../domain/configurations.ts';
import { cursorScope, decodeCursor, encodeCursor } from '../../domain/history-cursor.ts';
import type { Installation } from '../../domain/installations.ts';
import { AppError } from '../../http/errors.ts';
import { rawDiff, shownSections } from './raw-diff.ts';
import { parseStoredOffThread } from '../../domain/config-parse-task.ts';
import type { Offload } from '../../offload/pool.ts';

/** The configuration history (docs/config-history.md): list, changes, raw diff, restore. */

const versionNotFound = () => new AppError(404, CONFIG_HISTORY_MESSAGES.versionNotFound, 'NOT_FOUND');

interface VersionDbRow {
  version: number;
  at: Date;
  rowKey: string;
  author: TVersionAuthor;
  address: string | null;
  summary: unknown;
  hasText: boolean;
}

interface StoredSummary {
  sections?: THistorySection[];
  lines?: string[];
}

const summaryOf = (v: unknown): StoredSummary =>
  ((typeof v === 'string' ? JSON.parse(v) : v) as StoredSummary | null) ?? {};

const KEY = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "rowKey"`;

/** Versions shown: those with a text (people's), and the connector's updates when asked for. */
const shownWhere = (connector: boolean) =>
  connector
    ? `installation_id = $1 AND (${HAS_TEXT} OR author = 'connector')`
    : `installation_id = $1 AND ${HAS_TEXT} AND author <> 'connector'`;

/**
 * One page of versions, newest first, paged by version with the history lists' signed cursors
 * (docs/history.md, Paging). An installation has a few hundred versions at most (the retention),
 * so the total is counted and a page number alone is read with OFFSET.
 */
export async function listVersions(
  db: Db,
  installationId: string,
  query: TConfigHistoryQuery,
  displayTimeZone: TDisplayTimeZone,
  secret: string,
  retention: VersionRetention,
): Promise<TConfigHistoryPage> {
  const { page, pageSize } = query;
  const scope = cursorScope(installationId, 'configuration-history', { connector: query.connector });
  const position = query.cursor && page > 1 ? decodeCursor(secret, scope, page, query.cursor) : null;
  const where = shownWhere(query.connector);
  const columns = `version, created_at AS at, ${KEY}, author, address, summary, ${HAS_TEXT} AS "hasText"`;

  return db.transaction(async (q) => {
    await q.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    const [count] = await q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM configuration_versions WHERE ${where}`,
      [installationId],
    );
    const total = count?.n ?? 0;
    let rows: VersionDbRow[];
    if (position?.side === 'after') {
      rows = await q.query<VersionDbRow>(
        `SELECT ${columns} FROM configuration_versions WHERE ${where} AND version < $2
         ORDER BY version DESC LIMIT $3`,
        [installationId, Number(position.id), pageSize],
      );
    } else if (position?.side === 'before') {
      rows = (
        await q.query<VersionDbRow>(
          `SELECT ${columns} FROM configuration_versions WHERE ${where} AND version > $2
           ORDER BY version ASC LIMIT $3`,
          [installationId, Number(position.id), pageSize],
        )
      ).reverse();
    } else {
      rows = await q.query<VersionDbRow>(
        `SELECT ${columns} FROM configuration_versions WHERE ${where}
         ORDER BY version DESC OFFSET $2 LIMIT $3`,
        [installationId, (page - 1) * pageSize, pageSize],
      );
    }
    const [cur] = await q.query<{ version: number }>(
      'SELECT version FROM configurations WHERE installation_id = $1',
      [installationId],
    );
    const currentVersion = cur?.version ?? 0;
    const folds = query.connector
      ? new Map<number, TConnectorFold>()
      : await connectorFolds(q, installationId, rows);
    const versions: TConfigVersionRow[] = rows.map((r) => {
      const s = summaryOf(r.summary);
      return {
        version: r.version,
        at: r.at.toISOString(),
        author: r.author,
        address: r.address,
        sections: (s.sections ?? []).filter((x) => HISTORY_SECTION_KEYS.includes(x)),
        summary: s.lines ?? [],
        current: r.version === currentVersion,
        restorable: r.hasText && r.author !== 'connector',
        connectorAfter: folds.get(r.version) ?? null,
      };
    });
    const totalPages = Math.ceil(total / pageSize);
    const first = rows[0];
    const last = rows.at(-1);
    const hasNext = page < totalPages;
    const hasPrevious = page > 1;
    const cursor = (p: number, side: 'after' | 'before', r: VersionDbRow) =>
      encodeCursor(secret, scope, { page: p, side, time: r.rowKey, id: String(r.version) });
    return {
      versions,
      pagination: {
        page,
        pageSize,
        total,
        totalPages,
        totalExact: true,
        hasPrevious,
        hasNext,
        nextCursor: hasNext && last ? cursor(page + 1, 'after', last) : null,
        previousCursor: hasPrevious && first ? cursor(page - 1, 'before', first) : null,
      },
      displayTimeZone,
      currentVersion,
      retention,
    };
  });
}

/**
 * The connector's updates folded above each listed version: those between it and the next newer
 * version shown (for the newest one, up to now).
 */
async function connectorFolds(
  q: Queryable,
  installationId: string,
  rows: VersionDbRow[],
): Promise<Map<number, TConnectorFold>> {
  const folds = new Map<number, TConnectorFold>();
  if (rows.length === 0) return folds;
  const lowest = (rows.at(-1) as VersionDbRow).version;
  const [above] = await q.query<{ v: number | null }>(
    `SELECT min(version) AS v FROM configuration_versions
     WHERE installation_id = $1 AND version > $2 AND ${HAS_TEXT} AND author <> 'connector'`,
    [installationId, (rows[0] as VersionDbRow).version],
  );
  const upper = above?.v ?? 2 ** 31 - 1;
  const connector = await q.query<{ version: number; at: Date }>(
    `SELECT version, created_at AS at FROM configuration_versions
     WHERE installation_id = $1 AND author = 'connector' AND version > $2 AND version < $3 ORDER BY version`,
    [installationId, lowest, upper],
  );
  const listed = rows.map((r) => r.version).sort((a, b) => a - b);
  for (const c of connector) {
    // The listed version just below it: the fold sits above that row.
    let below: number | undefined;
    for (const v of listed) if (v < c.version) below = v;
    if (below === undefined) continue;
    const f = folds.get(below);
    const at = c.at.toISOString();
    if (!f) folds.set(below, { count: 1, from: at, to: at });
    else folds.set(below, { count: f.count + 1, from: f.from < at ? f.from : at, to: f.to > at ? f.to : at });
  }
  return folds;
}

interface Compared {
  older: ConfigDocument;
  newer: ConfigDocument;
  otherVersion: number | null;
  sections: THistorySection[];
}

/** The kept text of a version (404 when it has none: pruned, or the connector's). */
async function versionText(q: Queryable, installationId: string, version: number): Promise<string> {
  const text = await getVersionText(q, installationId, version);
  if (text === null) throw versionNotFound();
  return text;
}

/**
 * A connector version is not restorable (its list row says so: docs/config-history.md), even when
 * a person's save kept its text as the backup of the version it replaced.
 */
async function refuseConnectorVersion(q: Queryable, installationId: string, version: number): Promise<void> {
  const [row] = await q.query<{ author: string }>(
    'SELECT author FROM configuration_versions WHERE installation_id = $1 AND version = $2',
    [installationId, version],
  );
  if (row?.author === 'connector')
    throw new AppError(409, CONFIG_HISTORY_MESSAGES.connectorNotRestorable, 'not-restorable');
}

/** The sections whose console scopes differ between two documents. */
function differingSections(a: ConfigDocument, b: ConfigDocument): THistorySection[] {
  return HISTORY_SECTION_KEYS.filter((section) => {
    const kind = KIND_OF_SECTION[section];
    if (kind !== 'terminal') return editScope(a, kind) !== editScope(b, kind);
    const n = Math.max(terminalCount(a), terminalCount(b));
    for (let i = 0; i < n; i++) if (editScope(a, 'terminal', i) !== editScope(b, 'terminal', i)) return true;
    return false;
  });
}

async function compare(
  db: Queryable,
  installationId: string,
  version: number,
  against: 'previous' | 'current',
): Promise<Compared | null> {
  const doc = parseStored(await versionText(db, installationId, version));
  if (against === 'current') {
    const current = await getConfiguration(db, installationId);
    const now = parseStored(current.text);
    return { older: doc, newer: now, otherVersion: current.version, sections: differingSections(doc, now) };
  }
  const [previous] = await db.query<{ version: number }>(
    `SELECT version FROM configuration_versions
     WHERE installation_id = $1 AND version < $2 AND ${HAS_TEXT} ORDER BY version DESC LIMIT 1`,
    [installationId, version],
  );
  const previousText = previous ? await getVersionText(db, installationId, previous.version) : null;
  if (!previous || previousText === null) return null;
  const before = parseStored(previousText);
  // Between the previous kept text and this version only the connector wrote (the retention
  // prunes the oldest texts first), and its writes are in no section of the console.
  return {
    older: before,
    newer: doc,
    otherVersion: previous.version,
    sections: differingSections(before, doc),
  };
}

export async function versionChanges(
  db: Queryable,
  installationId: string,
  version: number,
  against: 'previous' | 'current',
): Promise<TConfigChanges> {
  const c = await compare(db, installationId, version, against);
  if (!c) return { version, against, otherVersion: null, sections: [] };
  return {
    version,
    against,
    otherVersion: c.otherVersion,
    sections: sectionChanges(c.older, c.newer, c.sections),
  };
}

export async function versionRawDiff(
  db: Queryable,
  installationId: string,
  version: number,
  section: THistorySection,
  against: 'previous' | 'current',
): Promise<TConfigRawDiff> {
  const c = await compare(db, installationId, version, against);
  if (!c) return { section, lines: [], tooLarge: false };
  const { before, after } = shownSections(c.older, c.newer, section);
  return rawDiff(before, after, section);
}

export interface RestoreRequest {
  installation: Installation;
  version: number;
  sections: THistorySection[] | undefined;
  /** The current version the client saw (If-Match): any other answers 409. */
  ifMatch: number;
  address: string;
  retention: VersionRetention;
  /** The worker threads: a big configuration is scanned there, never on the request thread. */
  offload: Offload;
}

/**
 * Restores sections of a version (all of them by default) as a new version, author 'restore',
 * through the one write path (writeConfiguration): the client's If-Match must be the current
 * version (anything written meanwhile, by the console or the connector: 409, nothing written),
 * the scopes are put back outside any transaction (config-xml restoreScopes: the connector's
 * nodes stay as they are now), and the result is written and audited in a short one.
 */
export async function restoreVersion(db: Db, req: RestoreRequest): Promise<TRestoreResponse> {
  const sections = req.sections ?? HISTORY_SECTION_KEYS;
  const audit = (
    tx: Queryable,
    details: Record<string, unknown>,
    outcome: 'success' | 'failure' = 'success',
  ) =>
    recordAudit(tx, {
      installationId: req.installation.id,
      syncId: req.installation.syncId,
      actor: 'user',
      action: 'config.restore',
      address: req.address,
      outcome,
      details: { restoredVersion: req.version, ifMatch: req.ifMatch, ...details },
    });
  try {
    return await writeConfiguration(db, req.installation.id, {
      prepare: async (current) => {
        if (req.ifMatch !== current.version) throw conflict();
        await refuseConnectorVersion(db, req.installation.id, req.version);
        const old = await parseStoredOffThread(
          req.offload,
          await versionText(db, req.installation.id, req.version),
        );
        const doc = await parseStoredOffThread(req.offload, current.text);
        let text: string;
        try {
          text = restoreScopes(doc, old, [...new Set(sections.map((s) => KIND_OF_SECTION[s]))]);
        } catch (err) {
          if (err instanceof ConfigXmlError) throw new AppError(422, err.message, err.code);
          throw err;
        }
        if (text === current.text) return null;
        return prepareVersion(db, req.installation.id, current, text, 'restore', {
          currentDoc: doc,
          offload: req.offload,
        });
      },
      commit: async (tx, prepared, current): Promise<TRestoreResponse> => {
        if (!prepared) {
          return {
            message: CONFIG_HISTORY_MESSAGES.nothingToRestore,
            version: current.version,
            sections: [],
          };
        }
        const written = await commitVersion(tx, req.installation.id, prepared, null, req.retention, {
          address: req.address,
        });
        await audit(tx, {
          sections: written.sections,
          fromVersion: current.version,
          version: written.version,
          summary: written.summary,
        });
        return {
          message: CONFIG_HISTORY_MESSAGES.restored,
          version: written.version,
          sections: written.sections,
        };
      },
    });
  } catch (err) {
    if (err instanceof AppError && (err.code === 'conflict' || err.status === 422))
      await audit(db, { sections, refused: err.code === 'conflict' ? 'conflict' : err.message }, 'failure');
    throw err;
  }
}
