import type { TRepairChange } from '@synchro/contracts';

/** One repair step: text in, text out, with what it changed (nothing when it found nothing). */
export interface TRepairStep {
  (text: string): { text: string; changes: TRepairChange[] };
}
