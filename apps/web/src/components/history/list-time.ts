import { formatDateTimeInZone } from '../../lib/format.ts';

/**
 * A time of a history list: `dd/MM/yyyy HH:mm:ss` in the answer's display zone, without any other
 * shift (docs/decisions.md: the spec's two hours back compensated the earlier console's error).
 */
export function listTime(iso: string, zone: string): string {
  return formatDateTimeInZone(iso, zone, false, true) ?? '—';
}
