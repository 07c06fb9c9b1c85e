import type { Db, Queryable } from '../db/types.ts';
import { displayClock, type DisplayedTime } from '../time/display-clock.ts';
import { recordAudit } from './audit.ts';
import {
  beyondKey,
  selectRows,
  terminalScope,
  whereOf,
  type HistoryFilters,
  type HistoryTable,
  type KeyedRow,
} from './history-list.ts';

/** The CSV exports of the history lists (docs/history.md, Exports): keyset batches, audit. */

/**
 * Every row the filters select, newest first, in batches read by keyset (never OFFSET, never the
 * whole result in memory): the CSV exports. The next batch is asked for as soon as a batch
 * arrives, so that the database reads it while the caller formats this one (PostgreSQL's pool
 * runs it on another connection, another core); at most two batches are held.
 */
export async function* allRows<Row>(
  db: Db,
  t: HistoryTable,
  installationId: string,
  filters: HistoryFilters,
  columns: string,
  batchSize: number,
): AsyncGenerator<(Row & KeyedRow)[]> {
  const where = whereOf(t, installationId, filters);
  const batchAfter = (after: KeyedRow | null) =>
    selectRows<Row>(
      db,
      t,
      columns,
      where,
      'newest',
      after ? beyondKey(t, where, 'oldest', after.rowKey, after.rowId) : null,
      0,
      batchSize,
    );
  let pending: Promise<(Row & KeyedRow)[]> | null = batchAfter(null);
  while (pending) {
    const rows: (Row & KeyedRow)[] = await pending;
    const last = rows[rows.length - 1];
    pending = rows.length === batchSize && last ? batchAfter(last) : null;
    // A batch the consumer never takes (client gone) must not end as an unhandled rejection.
    pending?.catch(() => {});
    if (rows.length > 0) yield rows;
  }
}

/** What an export reads (its columns, `epochMs` the row's time) and writes for each row. */
export interface CsvExport<Row extends { epochMs: number }> {
  table: HistoryTable;
  columns: string;
  /**
   * Reads what the columns left out of some rows of a batch, before their cells are written: a
   * long log is read alone, so that a batch holds at most a few KB per row whatever the logs weigh.
   */
  complete?: (db: Queryable, rows: (Row & KeyedRow)[]) => Promise<void>;
  cells: (row: Row, time: DisplayedTime) => (string | number)[];
}

/** The CSV rows of a filtered list, newest first, batch by batch, times written in `zone`. */
export async function* csvRowsOf<Row extends { epochMs: number }>(
  db: Db,
  spec: CsvExport<Row>,
  installationId: string,
  filters: HistoryFilters,
  zone: string,
  batchSize: number,
): AsyncGenerator<(string | number)[][]> {
  const clock = displayClock(zone);
  for await (const batch of allRows<Row>(db, spec.table, installationId, filters, spec.columns, batchSize)) {
    await spec.complete?.(db, batch);
    yield batch.map((r) => spec.cells(r, clock(Number(r.epochMs))));
  }
}

/** Who acts on a history list (the signed-in installation, from an address). */
export interface HistoryActor {
  installationId: string;
  syncId: string;
  address: string;
}

/** An export is audited with its filters (`import-history.export`, `transaction-logs.export`). */
export async function auditHistoryExport(
  db: Queryable,
  actor: HistoryActor,
  t: HistoryTable,
  filters: HistoryFilters,
): Promise<void> {
  await recordAudit(db, {
    installationId: actor.installationId,
    syncId: actor.syncId,
    actor: 'user',
    action: `${t.name}.export`,
    address: actor.address,
    details: {
      errorOnly: filters.errorOnly,
      ...(filters.waitingOnly ? { waitingOnly: true } : {}),
      ...terminalScope(filters.terminals),
      from: filters.range?.from.toISOString() ?? null,
      to: filters.range?.to.toISOString() ?? null,
      search: filters.search,
      ...(filters.kind ? { kind: filters.kind } : {}),
    },
  });
}
