import { z } from 'zod';
import { zConfigText, zConfigLine, ZFlag } from './payload.ts';

export const HISTO_MAX = 10000;

export const ZSyncDataItem = z.object({
  Reference: z.string(),
  Complete: z.boolean(),
  Libelle: z.string(),
  Histo: z.number().int(),
  CanHaveHistory: z.boolean(),
});
export type TSyncDataItem = z.infer<typeof ZSyncDataItem>;
export const ZSyncDataView = z.object({ syncData: z.array(ZSyncDataItem) });
export type TSyncDataView = z.infer<typeof ZSyncDataView>;

const zHisto = z
  .union([z.number(), z.string().regex(/^\d*$/, 'Historique : chiffres uniquement')], {
    error: 'Historique : nombre attendu',
  })
  .transform((v) => (v === '' ? 0 : Number(v)))
  .pipe(
    z
      .number()
      .int('Historique : nombre entier attendu')
      .min(0, 'Historique : 0 au minimum')
      .max(HISTO_MAX, `Historique : ${HISTO_MAX} au maximum`),
  );

/**
 * POST /api/sync-data/save. Each item updates the Donnee of the same Reference (Complete, Histo;
 * the Libelle belongs to the connector and is written only for a Reference not yet in the list).
 */
export const ZSyncDataPayload = z.object({
  syncData: z
    .array(
      z.object({
        Reference: zConfigLine(200).refine((v) => v.trim() !== '', 'La référence est obligatoire'),
        Complete: ZFlag,
        Libelle: zConfigText(500),
        Histo: zHisto,
        CanHaveHistory: z.boolean().optional(),
      }),
    )
    .max(2000, 'Au plus 2000 données'),
});
export type TSyncDataPayload = z.input<typeof ZSyncDataPayload>;
