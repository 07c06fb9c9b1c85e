import { z } from 'zod';
import { zConfigText, zConfigLine } from './payload.ts';

export const ZExclusionType = z.enum(['ItemFamily', 'CustomerFamily', 'SupplierFamily'], {
  error: "Type d'exclusion attendu : ItemFamily, CustomerFamily ou SupplierFamily",
});
export type TExclusionType = z.infer<typeof ZExclusionType>;

export const ZExclusion = z.object({
  /** `family|` for a whole family, `family|sub` for a sub-family. */
  id: z.string(),
  libelle: z.string(),
  type: ZExclusionType,
});
export type TExclusion = z.infer<typeof ZExclusion>;
export const ZExclusionsView = z.object({ exclusions: z.array(ZExclusion) });
export type TExclusionsView = z.infer<typeof ZExclusionsView>;

/** The earlier console's own codes for the three family types, accepted in payloads. */
export const LEGACY_EXCLUSION_TYPES = {
  ART: 'ItemFamily',
  CLI: 'CustomerFamily',
  FOU: 'SupplierFamily',
} as const;

const zExclusionTypeInput = z
  .enum([...ZExclusionType.options, 'ART', 'CLI', 'FOU'], {
    error: "Type d'exclusion attendu : ItemFamily, CustomerFamily ou SupplierFamily (ou ART, CLI, FOU)",
  })
  .transform((v): TExclusionType =>
    v === 'ART' || v === 'CLI' || v === 'FOU' ? LEGACY_EXCLUSION_TYPES[v] : v,
  );

/**
 * POST /api/database/exclusions: the whole list of the three family types (NuxiSavOnLine is kept).
 * `type` may also be ART, CLI or FOU; `libelle` may be left out (or null): the configuration engine
 * then takes the family's label from the Data lists.
 */
export const ZExclusionsPayload = z.object({
  exclusions: z
    .array(
      z.object({
        id: zConfigLine(400)
          .refine(
            (v) => /^[^|]+(\|[^|]*)?$/.test(v.trim()),
            "Identifiant attendu : 'famille|' ou 'famille|sous-famille'",
          )
          .transform((v) => {
            const t = v.trim();
            return t.includes('|') ? t : `${t}|`;
          }),
        libelle: zConfigText(1000)
          .nullish()
          .transform((v) => v ?? undefined),
        type: zExclusionTypeInput,
      }),
    )
    .max(100000, 'Trop d’exclusions'),
});
export type TExclusionsPayload = z.input<typeof ZExclusionsPayload>;
