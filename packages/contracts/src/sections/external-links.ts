import { z } from 'zod';
import { zConfigLine } from './payload.ts';

export const ZLiaisonView = z.object({
  Logiciel: z.string(),
  Config: z.string(),
  Utilisateur: z.string(),
  /** SECRET_PLACEHOLDER when a password is stored, '' when none. */
  MDP: z.string(),
});
export type TLiaisonView = z.infer<typeof ZLiaisonView>;

export const ZExternalLinksView = z.object({
  Dossier_Import: z.string(),
  Dossier_Export: z.string(),
  Liaisons: z.array(ZLiaisonView),
});
export type TExternalLinksView = z.infer<typeof ZExternalLinksView>;

/** POST /api/database/external-links. Liaison i of the payload is written to the i-th Liaison. */
export const ZExternalLinksPayload = z.object({
  Dossier_Import: zConfigLine(1000),
  Dossier_Export: zConfigLine(1000),
  Liaisons: z
    .array(
      z.object({
        Logiciel: zConfigLine(1000),
        Config: zConfigLine(1000),
        Utilisateur: zConfigLine(500),
        MDP: zConfigLine(500),
      }),
    )
    .max(16, 'Au plus 16 liaisons'),
});
export type TExternalLinksPayload = z.input<typeof ZExternalLinksPayload>;
