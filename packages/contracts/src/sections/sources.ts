import { z } from 'zod';
import { zConfigLine, ZFlag } from './payload.ts';

export { PROVIDER_OPTIONS, CONFIG_BLOCK_COUNT } from '../constants.ts';

export const ZSourceView = z.object({
  Provider: z.string(),
  Serveur: z.string(),
  Nom_BDD: z.string(),
  Lecture_Seule: z.boolean(),
  Utilisateur: z.string(),
  /** SECRET_PLACEHOLDER when a password is stored, '' when none. */
  MDP: z.string(),
  /** Written by the connector: 0 = connection failed; null when absent. */
  Status: z.number().int().nullable(),
  StatusLibelle: z.string(),
});
export type TSourceView = z.infer<typeof ZSourceView>;

export const ZSourcesView = z.object({ sources: z.array(ZSourceView) });
export type TSourcesView = z.infer<typeof ZSourcesView>;

export const ZSourceInput = z.object({
  Provider: zConfigLine(200),
  Serveur: zConfigLine(500),
  Nom_BDD: zConfigLine(500),
  Lecture_Seule: ZFlag,
  Utilisateur: zConfigLine(500),
  /** SECRET_PLACEHOLDER keeps the stored password. */
  MDP: zConfigLine(500),
});
/** POST /api/database/sources. Block i of the payload is written to the i-th Source. */
export const ZSourcesPayload = z.object({
  sources: z.array(ZSourceInput).max(16, 'Au plus 16 sources'),
});
export type TSourcesPayload = z.input<typeof ZSourcesPayload>;
