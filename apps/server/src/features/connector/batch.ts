import type { TPayloadIssue } from '@synchro/contracts';
import { decodeConnectorText } from '@synchro/config-xml';
import { AppError } from '../../http/errors.ts';
import { connectorInvalid } from '../../http/validate.ts';
import { connectorInstant } from '../../time/connector-time.ts';

/**
 * What both batch routes (import records, transactions) share: times read in the installation's
 * zone, the decoded short texts, issues gathered over the whole batch before anything is written,
 * and the one answer when two batches with the same ids meet.
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

/** A short text as the console shows, searches and exports it: decoded from the convention. */
export const shownText = decodeConnectorText;

/** Throws the 400 naming every field found wrong in the batch, when there is one. */
export function refuseIfIssues(issues: readonly TPayloadIssue[]): void {
  if (issues.length > 0) throw connectorInvalid(issues);
}

/** Keeps the first item of each id; the others are duplicates of the same batch. */
export function firstOfEachId<T>(items: readonly T[], idOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const id = idOf(item);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * Two batches sharing ids, written at the same moment in different orders, can wait on each
 * other: PostgreSQL then stops one (deadlock, or a serialization failure). Its sender is told to
 * send it again; nothing of it was written.
 */
export function concurrentBatch(err: unknown): unknown {
  const code = (err as { code?: unknown }).code;
  if (code === '40P01' || code === '40001') {
    return new AppError(
      409,
      'Un autre envoi des mêmes éléments était en cours : rien n’a été enregistré de celui-ci, renvoyez-le.',
      'conflict',
    );
  }
  return err;
}
