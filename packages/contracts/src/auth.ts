import { z } from 'zod';
import { SYNC_ID_MESSAGE, SYNC_ID_PATTERN } from './sync-id.ts';

/**
 * POST /api/login: username is the sync id, password the client id. The sync id is upper-cased
 * here as the login screen does it before sending (docs/spec-notes.md, Sign-in): `dEmoa001` signs
 * in as `DEMOA001`. Only a-z change: any other character still fails the pattern.
 */
export const ZLoginRequest = z.object({
  username: z
    .string()
    .min(1, "L'ID de synchronisation est obligatoire")
    .max(64)
    .transform((v) => v.replace(/[a-z]+/g, (s) => s.toUpperCase()))
    .pipe(z.string().regex(SYNC_ID_PATTERN, SYNC_ID_MESSAGE)),
  password: z.string().min(1, "L'ID Client est obligatoire").max(256),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

export const ZPlanningCounts = z.object({ C: z.number().int(), R: z.number().int(), I: z.number().int() });
export type TPlanningCounts = z.infer<typeof ZPlanningCounts>;

/** GET /api/user and the answer of POST /api/login (docs/spec-notes.md, Current user). */
export const ZUser = z.object({
  IDSynchro: z.string(),
  Tablettes: z.string(),
  Premium: z.number().int(),
  Options: z.string(),
  /** The ConfigConnecteur text with every secret replaced by SECRET_PLACEHOLDER. */
  ConfigConnecteur: z.string(),
  planningCounts: ZPlanningCounts,
  /** Addition: version number of the stored configuration, for If-Match on saves. */
  configVersion: z.number().int(),
});
export type TUser = z.infer<typeof ZUser>;

export { SECRET_PLACEHOLDER } from './constants.ts';
