import { parseConnectorItem, type TPayloadIssue } from '@synchro/contracts';
import { decodeConnectorText } from '@synchro/config-xml';
import type { z } from 'zod';
import { connectorInvalid } from '../../http/validate.ts';
import { connectorInstant } from '../../time/connector-time.ts';

/**
 * The checks of a batch's items that both batch routes share: times read in the installation's
 * zone, the decoded short texts, every fault named with its item's index. Pure: they run on the
 * request thread or in a worker thread (checked-batches.ts).
 */

/** The UTC instant of a connector time (already checked by the schema) in `zone`. */
export function utcInstant(value: string, zone: string, path: string, issues: TPayloadIssue[]): Date {
  const instant = connectorInstant(value, zone);
  if (instant === null || Number.isNaN(instant.getTime())) {
    issues.push({ path, message: 'date et heure ISO 8601 attendues' });
    return new Date(0);
  }
  return instant;
}

/**
 * The rows of a slice of a batch's items: each checked with `schema`, then turned into its row by
 * `toRow` (which may add faults of its own under `path`). Faults are named with the item's index
 * in the batch (`records[12].DateHeure`); an item its schema refuses gives no row. `plain` reads
 * the usual item without the schema (the schema's output, or null: plain-items.ts).
 */
export function checkedRows<S extends z.ZodType, R>(
  schema: S,
  items: readonly unknown[],
  name: string,
  offset: number,
  issues: TPayloadIssue[],
  toRow: (value: z.output<S>, path: string) => R,
  plain?: (item: unknown) => z.output<S> | null,
): R[] {
  const rows: R[] = [];
  items.forEach((item, k) => {
    const path = `${name}[${offset + k}]`;
    const value = plain?.(item) ?? null;
    if (value !== null) {
      rows.push(toRow(value, path));
      return;
    }
    const checked = parseConnectorItem(schema, item, path);
    if (checked.ok) rows.push(toRow(checked.value, path));
    else issues.push(...checked.issues);
  });
  return rows;
}

/** A short text as the console shows, searches and exports it: decoded from the convention. */
export const shownText = decodeConnectorText;

/** Throws the 400 naming every field found wrong in the batch, when there is one. */
export function refuseIfIssues(issues: readonly TPayloadIssue[]): void {
  if (issues.length > 0) throw connectorInvalid(issues);
}
