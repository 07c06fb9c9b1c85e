import { z } from 'zod';

/**
 * « Connecter » (Drive pour la GED, docs/mail.md): the console's routes of the OAuth link, and
 * the connector API's access token route (additive to v1, docs/connector-api.md).
 */

export const DRIVE_PATHS = {
  status: '/api/drive',
  connect: '/api/drive/connect',
  disconnect: '/api/drive/disconnect',
  callback: '/api/drive/callback',
  /** Connector API v1. */
  accessToken: '/api/connector/v1/drive/access-token',
} as const;

export const ZDriveProvider = z.enum(['google', 'onedrive'], {
  error: "Type de drive attendu : 'google' ou 'onedrive'",
});
export type TDriveProvider = z.infer<typeof ZDriveProvider>;

export const DRIVE_PROVIDER_LABELS: Record<TDriveProvider, string> = {
  google: 'Google Drive',
  onedrive: 'OneDrive',
};

export const ZDriveConnectRequest = z.object({ provider: ZDriveProvider });
export type TDriveConnectRequest = z.input<typeof ZDriveConnectRequest>;

export const ZDriveConnectAnswer = z.object({
  /** The provider's authorisation page, where the browser goes. */
  authorizationUrl: z.string(),
});
export type TDriveConnectAnswer = z.infer<typeof ZDriveConnectAnswer>;

export const ZDriveStatus = z.object({
  /** The providers this server has an OAuth client for. */
  configured: z.object({ google: z.boolean(), onedrive: z.boolean() }),
  link: z
    .object({
      provider: ZDriveProvider,
      /** The account's address ('' when the provider named none). */
      account: z.string(),
      /** revoked: the provider no longer honours it; connect again. */
      state: z.enum(['connected', 'revoked']),
      connectedAt: z.string(),
    })
    .nullable(),
});
export type TDriveStatus = z.infer<typeof ZDriveStatus>;

/** POST /api/drive/disconnect: the status after it, and whether the grant may live on at its provider. */
export const ZDriveDisconnectAnswer = ZDriveStatus.extend({
  /** The provider could not be asked, refused, or cannot revoke (OneDrive): the grant may live on. */
  grantKept: z.boolean(),
});
export type TDriveDisconnectAnswer = z.infer<typeof ZDriveDisconnectAnswer>;

/** What « Déconnecter » says, by whether the grant may live on at its provider. */
export const DRIVE_DISCONNECT_MESSAGES = {
  revoked: 'Drive déconnecté.',
  grantKept:
    "Drive déconnecté. L’autorisation n’a pas pu être révoquée chez son fournisseur : retirez l’accès de la console depuis le compte concerné (détails dans « Journal d'audit »).",
} as const;

/** `/complement?drive=<code>` after the provider's redirect, and what the screen says. */
export const DRIVE_CALLBACK_MESSAGES = {
  connected: 'Drive connecté.',
  /** Connected, but the link it replaced could not be withdrawn at its provider. */
  'connected-previous-kept':
    "Drive connecté. L’autorisation précédente n’a pas pu être révoquée chez son fournisseur : retirez l’accès de la console depuis le compte concerné (détails dans « Journal d'audit »).",
  refused: 'Connexion au Drive refusée par le fournisseur.',
  denied: 'Connexion au Drive annulée : l’accès n’a pas été autorisé.',
  invalid: 'Demande de connexion au Drive inconnue ou déjà utilisée : recommencez.',
  expired: 'Demande de connexion au Drive expirée : recommencez.',
  unavailable: 'Le fournisseur du Drive est injoignable : réessayez plus tard.',
  'no-refresh-token':
    'Le fournisseur n’a pas donné d’autorisation durable : recommencez en acceptant l’accès demandé.',
} as const;
export type TDriveCallbackCode = keyof typeof DRIVE_CALLBACK_MESSAGES;

/** GET /api/connector/v1/drive/access-token (OAuth's own names for the token, as the drives' APIs expect). */
export const ZDriveAccessTokenAnswer = z.object({
  Type_Drive: ZDriveProvider,
  Compte: z.string(),
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  /** Seconds left. */
  expires_in: z.number().int(),
  expires_at: z.string(),
});
export type TDriveAccessTokenAnswer = z.infer<typeof ZDriveAccessTokenAnswer>;
