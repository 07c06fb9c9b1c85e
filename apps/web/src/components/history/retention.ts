import { formatNumber } from '../../lib/format.ts';

/**
 * A list's description, followed by what the history retention deletes when it is on
 * (HISTORY_RETENTION_DAYS; null or not known yet: the description alone).
 */
export function withRetention(
  description: string,
  retentionDays: number | null | undefined,
  sentence: (days: string) => string,
): string {
  return retentionDays ? `${description} ${sentence(formatNumber(retentionDays))}` : description;
}
