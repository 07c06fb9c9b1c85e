import nodemailer from 'nodemailer';
import type { SmtpSettings } from '../config/mail-env.ts';
import type { RenderedMail } from './facts.ts';

/**
 * Sending one email through the SMTP relay (nodemailer: docs/decisions.md). STARTTLS when the relay
 * offers it, certificates checked (plus SMTP_CA_FILE), every step bounded by `timeoutMs`. Failures
 * come back as French reasons with the relay's own answer; never a credential.
 */

export interface OutgoingMail extends RenderedMail {
  from: string;
  to: string[];
  /** `<…@…>`: the same for every attempt of one outbox row, so that a receiver can see a repeat. */
  messageId: string;
}

export type Delivery =
  | { ok: true; response: string }
  | {
      ok: false;
      /** The relay refused it for good (5xx): sending it again would not help. */
      permanent: boolean;
      timeout: boolean;
      reason: string;
    };

export interface MailTransport {
  /** One attempt; never throws. */
  send(mail: OutgoingMail): Promise<Delivery>;
  /** The `host:port` of the relay (for the screens, never its credentials). */
  readonly relay: string;
}

export const SEND_TIMEOUT_MS = 10_000;

interface SmtpFailure {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

/** The relay's answer on one line, at most 300 characters. */
function relayAnswer(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/** What a failure of nodemailer means, in French. */
export function deliveryFailure(err: SmtpFailure, relay: string, timeoutMs: number): Delivery {
  const seconds = Math.round(timeoutMs / 1000);
  const timeout = { ok: false as const, permanent: false, timeout: true };
  if (err.code === 'ETIMEDOUT')
    return {
      ...timeout,
      reason: `Le serveur d’envoi (${relay}) n’a pas répondu dans les ${seconds} secondes.`,
    };
  if (err.code === 'EAUTH' || err.code === 'ENOAUTH') {
    return {
      ok: false,
      permanent: true,
      timeout: false,
      reason: `Le serveur d’envoi (${relay}) a refusé l’identification (SMTP_USER, SMTP_PASSWORD)${
        err.response ? ` : ${relayAnswer(err.response)}` : '.'
      }`,
    };
  }
  if (typeof err.responseCode === 'number' && err.response) {
    return {
      ok: false,
      permanent: err.responseCode >= 500,
      timeout: false,
      reason: `Le serveur d’envoi (${relay}) a refusé le courriel : ${relayAnswer(err.response)}`,
    };
  }
  const message = err.message ?? '';
  if (/certificate|self[- ]signed|unable to verify|altnames|CERT_/i.test(message)) {
    return {
      ok: false,
      permanent: false,
      timeout: false,
      reason: `Le certificat du serveur d’envoi (${relay}) n’est pas reconnu : le courriel n’a pas été envoyé (${relayAnswer(message)}).`,
    };
  }
  if (/ECONNREFUSED/.test(message) || err.code === 'ECONNECTION' || err.code === 'EDNS') {
    return {
      ok: false,
      permanent: false,
      timeout: false,
      reason: `Connexion au serveur d’envoi (${relay}) impossible : ${relayAnswer(message) || 'connexion refusée'}.`,
    };
  }
  return {
    ok: false,
    permanent: false,
    timeout: false,
    reason: `Envoi au serveur d’envoi (${relay}) impossible : ${relayAnswer(message) || 'erreur inconnue'}.`,
  };
}

export function smtpTransport(settings: SmtpSettings, timeoutMs = SEND_TIMEOUT_MS): MailTransport {
  const relay = `${settings.host.includes(':') ? `[${settings.host}]` : settings.host}:${settings.port}`;
  const transporter = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: settings.user !== undefined ? { user: settings.user, pass: settings.password ?? '' } : undefined,
    tls: { rejectUnauthorized: true, ...(settings.ca !== undefined ? { ca: settings.ca } : {}) },
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    socketCloseTimeout: 0,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    relay,
    // Every step of the exchange is bounded (connection, greeting, each answer: `timeoutMs`), not
    // the whole of it: a deadline on the whole answered « timeout » while the exchange went on, and
    // a relay slow at each step got the email, then again at the retry.
    async send(mail) {
      return transporter
        .sendMail({
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: { 'Auto-Submitted': 'auto-generated' },
        })
        .then(
          (info): Delivery => {
            // A relay may take the email for some recipients and refuse others: not a success,
            // and not to be sent again (the others have it).
            const refused = (info.rejected ?? []).map(String);
            if (refused.length > 0)
              return {
                ok: false,
                permanent: true,
                timeout: false,
                reason: `Le serveur d’envoi (${relay}) a refusé ${refused.length > 1 ? 'les destinataires' : 'le destinataire'} ${refused.join(', ')} : le courriel n’a été remis qu’aux autres.`,
              };
            return { ok: true, response: relayAnswer(String(info.response ?? '')) };
          },
          (err: unknown): Delivery => deliveryFailure(err as SmtpFailure, relay, timeoutMs),
        );
    },
  };
}
