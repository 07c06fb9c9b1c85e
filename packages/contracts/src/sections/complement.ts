import { z } from 'zod';
import { zConfigText, zConfigLine, ZFlag } from './payload.ts';

export const DRIVE_TYPE_MESSAGE = "Type de drive attendu : 'none', 'google' ou 'onedrive'";

/** Drive pour la GED: 'none' (Pas de Drive, stored empty), 'google', 'onedrive'. */
export const ZDriveType = z.enum(['none', 'google', 'onedrive'], { error: DRIVE_TYPE_MESSAGE });

export const ZComplementView = z.object({
  /** The geocoding API key is a secret: SECRET_PLACEHOLDER when one is stored, '' when none. */
  googleApiKey: z.string(),
  /** 'none' when nothing is stored; otherwise the stored value (normally 'google' or 'onedrive'). */
  driveType: z.string(),
  mailRapport: z.object({
    envoyerRapport: z.boolean(),
    mailDestinataire: z.string(),
    notifErr: z.boolean(),
    notifInf: z.boolean(),
    notifImp: z.boolean(),
    globaliserEnregImport: z.boolean(),
  }),
  /** ScriptComplementaire with LF line ends. */
  scriptComplementaire: z.string(),
});
export type TComplementView = z.infer<typeof ZComplementView>;

/** POST /api/database/complement. The customer-area login (EspaceClient) is never part of it. */
export const ZComplementPayload = z.object({
  /** SECRET_PLACEHOLDER keeps the stored key. */
  googleApiKey: zConfigLine(500),
  /**
   * A ZDriveType ('' is 'none'), or the value stored when it is another (the screen offers it as
   * it is, so that saving the rest does not lose it): the edit refuses any other with
   * DRIVE_TYPE_MESSAGE, as it alone knows the stored value.
   */
  driveType: zConfigLine(100).transform((v) => (v === '' ? 'none' : v)),
  mailRapport: z.object({
    envoyerRapport: ZFlag,
    mailDestinataire: zConfigLine(1000),
    notifErr: ZFlag,
    notifInf: ZFlag,
    notifImp: ZFlag,
    globaliserEnregImport: ZFlag,
  }),
  /** Line ends are normalised to LF (the document stores CRLF, as the connector writes it). */
  scriptComplementaire: zConfigText(200000).transform((v) => v.replace(/\r\n?/g, '\n')),
});
export type TComplementPayload = z.input<typeof ZComplementPayload>;
