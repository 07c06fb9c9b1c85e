/**
 * Consumes the import queue (connector-api.md `GET /import-records/queue`): every record waiting
 * with Etat 0, such as one set back to 0 in the console, is imported at this sync and its result
 * posted. A result that cannot be posted leaves the record in the queue for the next sync.
 */
import type { ConnectorApiClient } from './api-client.ts';
import { QUEUE_PAGE_SIZE } from './api-types.ts';
import { importResult } from './generators/import-results.ts';
import type { Logger } from './log.ts';
import type { Random } from './random.ts';

/** Pages read at one sync at most; what is left waits for the next one. */
export const MAX_QUEUE_PAGES = 50;

export interface QueueOutcome {
  imported: number;
  rejected: number;
  /** Results that could not be posted (the records stay queued). */
  unsent: number;
}

export async function consumeImportQueue(
  client: ConnectorApiClient,
  rng: Random,
  log: Logger,
  options: { failed?: boolean } = {},
): Promise<QueueOutcome> {
  const outcome: QueueOutcome = { imported: 0, rejected: 0, unsent: 0 };
  const handled = new Set<string>();
  for (let page = 0; page < MAX_QUEUE_PAGES; page++) {
    const records = await client.readImportQueue(QUEUE_PAGE_SIZE);
    const fresh = records.filter((r) => !handled.has(r.IDInterne));
    if (fresh.length === 0) break;
    for (const record of fresh) {
      handled.add(record.IDInterne);
      const result = importResult(rng, record, options);
      try {
        await client.postImportResult(record.IDInterne, result);
        if (result.Etat === 1) outcome.imported++;
        else outcome.rejected++;
      } catch (err) {
        outcome.unsent++;
        log.warn(
          'queue',
          `résultat de ${record.IDInterne} non envoyé : ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    if (records.length < QUEUE_PAGE_SIZE) break;
  }
  return outcome;
}
