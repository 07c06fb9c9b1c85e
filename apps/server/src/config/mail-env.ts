import { readFileSync } from 'node:fs';

/**
 * The email and drive settings of the environment (docs/mail.md, docs/server.md): the SMTP relay,
 * the sender, the console's public address for the links in emails and the OAuth redirect, the
 * drive providers' OAuth clients. Read once by config/env.ts. Messages never quote a value that
 * may hold a secret (SMTP_URL carries its password, a client secret is one).
 */

export interface SmtpSettings {
  host: string;
  port: number;
  /** smtps://: TLS from the first byte; smtp://: STARTTLS when the relay offers it. */
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
  /** Extra certificate authorities trusted for the relay (SMTP_CA_FILE), PEM. */
  ca: string | undefined;
}

export interface MailEnv {
  /** null without SMTP_URL: emails stay in the outbox, « Non envoyé : aucun serveur d'envoi configuré ». */
  smtp: SmtpSettings | null;
  /** MAIL_FROM (required with SMTP_URL); a default naming the console otherwise (never sent). */
  from: string;
  /** PUBLIC_URL without trailing slash: links in emails, the OAuth redirect address. */
  publicUrl: string;
}

export type DriveProviderName = 'google' | 'onedrive';

export interface OAuthClientSettings {
  clientId: string;
  clientSecret: string;
  authorizationUrl: string;
  tokenUrl: string;
  /** Where a refresh token is revoked at disconnection (Google); none for Microsoft. */
  revocationUrl: string | undefined;
  scope: string;
  /** Extra parameters of the authorisation request (Google: offline access, consent). */
  authorizationParams: Record<string, string>;
}

export type DriveEnv = Record<DriveProviderName, OAuthClientSettings | null>;

const nonEmpty = (v: string | undefined) => (v && v.trim() !== '' ? v.trim() : undefined);

/** An http:// or https:// address of the variable `name`, or its French refusal. */
export function httpUrlOf(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} invalide : une adresse http:// ou https:// est attendue.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`${name} invalide : une adresse http:// ou https:// est attendue.`);
  return url;
}

const httpUrl = (name: string, value: string) => httpUrlOf(name, value).toString().replace(/\/+$/, '');

/** SMTP_URL (`smtp://[user:password@]host[:port]` or `smtps://…`), SMTP_USER, SMTP_PASSWORD, SMTP_CA_FILE. */
export function readSmtp(env: NodeJS.ProcessEnv): SmtpSettings | null {
  const raw = nonEmpty(env.SMTP_URL);
  if (raw === undefined) return null;
  const expected =
    'SMTP_URL invalide : attendu smtp://hôte[:port] ou smtps://hôte[:port], avec éventuellement utilisateur:mot-de-passe@ avant l’hôte.';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(expected);
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '')
    throw new Error(expected);
  const secure = url.protocol === 'smtps:';
  const decode = (v: string) => (v === '' ? undefined : decodeURIComponent(v));
  const caFile = nonEmpty(env.SMTP_CA_FILE);
  let ca: string | undefined;
  if (caFile !== undefined) {
    try {
      ca = readFileSync(caFile, 'utf8');
    } catch {
      throw new Error(`SMTP_CA_FILE illisible : ${caFile}.`);
    }
  }
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? (secure ? 465 : 587) : Number(url.port),
    secure,
    user: nonEmpty(env.SMTP_USER) ?? decode(url.username),
    password:
      env.SMTP_PASSWORD !== undefined && env.SMTP_PASSWORD !== '' ? env.SMTP_PASSWORD : decode(url.password),
    ca,
  };
}

export function readMailEnv(env: NodeJS.ProcessEnv, port: number): MailEnv {
  const smtp = readSmtp(env);
  const from = nonEmpty(env.MAIL_FROM);
  if (smtp && from === undefined)
    throw new Error(
      'MAIL_FROM manquant : indiquez l’adresse d’expédition des emails (ex. « Console Synchro <synchro@exemple.fr> »).',
    );
  const publicUrl = httpUrl('PUBLIC_URL', nonEmpty(env.PUBLIC_URL) ?? `http://localhost:${port || 5000}`);
  return { smtp, from: from ?? 'Console Synchro <synchro@localhost>', publicUrl };
}

/**
 * PUBLIC_URL is required once emails leave (SMTP_URL) or a drive can be connected (a provider's
 * client): its default, `http://localhost:PORT`, would put links that lead nowhere in the emails and
 * send the drive's OAuth return to the reader's own machine. Without either (the demo) the default
 * stands. Like MAIL_FROM with SMTP_URL, the server does not start without it.
 */
export function requirePublicUrl(env: NodeJS.ProcessEnv, mail: MailEnv, drive: DriveEnv, port: number): void {
  if (nonEmpty(env.PUBLIC_URL) !== undefined) return;
  const uses = [
    ...(mail.smtp ? ['SMTP_URL (les liens des emails)'] : []),
    ...(drive.google ? ['GOOGLE_DRIVE_CLIENT_ID (le retour de Google après « Connecter »)'] : []),
    ...(drive.onedrive ? ['ONEDRIVE_CLIENT_ID (le retour de Microsoft après « Connecter »)'] : []),
  ];
  if (uses.length === 0) return;
  throw new Error(
    `PUBLIC_URL manquant : avec ${uses.join(' et ')}, indiquez l’adresse publique de la console ` +
      `(ex. « https://synchro.exemple.fr ») ; pour un essai sur cette machine seulement, PUBLIC_URL=http://localhost:${port || 5000}.`,
  );
}

const GOOGLE = {
  authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenUrl: 'https://oauth2.googleapis.com/token',
  revocationUrl: 'https://oauth2.googleapis.com/revoke',
  scope: 'openid email https://www.googleapis.com/auth/drive.file',
  authorizationParams: { access_type: 'offline', prompt: 'consent' },
};

const MICROSOFT = {
  authorizationUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
  tokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
  revocationUrl: undefined,
  scope: 'openid email offline_access Files.ReadWrite',
  authorizationParams: {},
};

function readProvider(
  env: NodeJS.ProcessEnv,
  prefix: string,
  defaults: typeof GOOGLE | typeof MICROSOFT,
): OAuthClientSettings | null {
  const clientId = nonEmpty(env[`${prefix}_CLIENT_ID`]);
  const clientSecret = nonEmpty(env[`${prefix}_CLIENT_SECRET`]);
  if (clientId === undefined && clientSecret === undefined) return null;
  if (clientId === undefined || clientSecret === undefined)
    throw new Error(
      `${prefix}_CLIENT_ID et ${prefix}_CLIENT_SECRET vont ensemble : indiquez les deux, ou aucun.`,
    );
  const url = (name: string, fallback: string | undefined) => {
    const value = nonEmpty(env[`${prefix}_${name}`]) ?? fallback;
    return value === undefined ? undefined : httpUrl(`${prefix}_${name}`, value);
  };
  return {
    clientId,
    clientSecret,
    authorizationUrl: url('AUTH_URL', defaults.authorizationUrl) as string,
    tokenUrl: url('TOKEN_URL', defaults.tokenUrl) as string,
    revocationUrl: url('REVOKE_URL', defaults.revocationUrl),
    scope: nonEmpty(env[`${prefix}_SCOPE`]) ?? defaults.scope,
    authorizationParams: defaults.authorizationParams,
  };
}

/** GOOGLE_DRIVE_* and ONEDRIVE_* (CLIENT_ID, CLIENT_SECRET, AUTH_URL, TOKEN_URL, REVOKE_URL, SCOPE). */
export function readDriveEnv(env: NodeJS.ProcessEnv): DriveEnv {
  return {
    google: readProvider(env, 'GOOGLE_DRIVE', GOOGLE),
    onedrive: readProvider(env, 'ONEDRIVE', MICROSOFT),
  };
}
