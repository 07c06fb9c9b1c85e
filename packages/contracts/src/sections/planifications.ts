import { z } from 'zod';
import { zConfigLine } from './payload.ts';

export const ZPlanningType = z.enum(['C', 'R', 'I'], { error: 'Type de synchro attendu : C, R ou I' });

export const ZPlanning = z.object({
  /** 1 Monday … 7 Sunday, 8 every day. */
  day: z.number().int(),
  /** HH:MM, wall-clock time of the chosen zone. */
  time: z.string(),
  type: z.string(),
});
export type TPlanning = z.infer<typeof ZPlanning>;

export const ZPlanificationsView = z.object({
  /** Planifications/FuseauHoraire (e.g. 'Europe/Paris'); '' when absent. */
  timeZone: z.string(),
  /** Planifications/FuseauHoraireValeur (e.g. '+01:00'); '' when absent. */
  timeZoneOffset: z.string(),
  plannings: z.array(ZPlanning),
});
export type TPlanificationsView = z.infer<typeof ZPlanificationsView>;

/** Offsets accepted for the time zone: +hh:mm / -hh:mm, or GMT+n / UTC-n (normalised to ±hh:mm). */
export function normaliseUtcOffset(value: string): string | null {
  const v = value.trim();
  let m = /^([+-])(\d{1,2}):?(\d{2})$/.exec(v);
  if (m) {
    const h = Number(m[2]);
    const min = Number(m[3]);
    if (h > 14 || min > 59) return null;
    return `${m[1]}${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`;
  }
  m = /^(?:GMT|UTC)\s*(?:([+-])(\d{1,2})(?::?(\d{2}))?)?$/i.exec(v);
  if (m) {
    if (!m[1]) return '+00:00';
    const h = Number(m[2]);
    const min = Number(m[3] ?? '0');
    if (h > 14 || min > 59) return null;
    return `${m[1]}${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`;
  }
  return null;
}

/**
 * POST /api/plannings. `plannings` replace the Planning entries; `timeZone`, when sent, sets
 * FuseauHoraireValeur (`value`, an offset such as '+01:00' or 'GMT+1', stored as ±hh:mm) and
 * FuseauHoraire (`label`, e.g. 'Europe/Paris'). `xmlInfo` is what the legacy console sent; the
 * configuration does not use it.
 */
export const ZPlanificationsPayload = z.object({
  plannings: z
    .array(
      z.object({
        day: z.coerce
          .number({ error: 'Jour attendu : 1 (lundi) à 7 (dimanche), 8 (tous les jours)' })
          .int('Jour attendu : 1 (lundi) à 7 (dimanche), 8 (tous les jours)')
          .min(1, 'Jour attendu : 1 (lundi) à 7 (dimanche), 8 (tous les jours)')
          .max(8, 'Jour attendu : 1 (lundi) à 7 (dimanche), 8 (tous les jours)'),
        time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Heure attendue au format HH:MM (00:00 à 23:59)'),
        type: ZPlanningType,
      }),
    )
    .max(500, 'Au plus 500 planifications'),
  xmlInfo: z.object({ exe: z.string().optional(), serial: z.string().optional() }).optional(),
  timeZone: z
    .object({
      value: z
        .string()
        .refine((v) => normaliseUtcOffset(v) !== null, 'Décalage horaire attendu : +hh:mm, -hh:mm ou GMT+n')
        .transform((v) => normaliseUtcOffset(v) as string),
      label: zConfigLine(100).refine((v) => v.trim() !== '', 'Le fuseau horaire est obligatoire'),
    })
    .optional(),
});
export type TPlanificationsPayload = z.input<typeof ZPlanificationsPayload>;
