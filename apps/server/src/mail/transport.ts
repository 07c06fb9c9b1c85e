import nodemailer from 'nodemailer';
import type { SmtpSettings } from '../config/mail-env.ts';
import type { RenderedMail } from './facts.ts';
import { relayAnswer, relayFailure, type SmtpFailure } from './relay-failures.ts';

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

/** What a failure of nodemailer means, in French (mail/relay-failures.ts). */
export function deliveryFailure(err: SmtpFailure, relay: string, timeoutMs: number): Delivery {
  return { ok: false, ...relayFailure(err, relay, timeoutMs) };
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
                reason: `Le serveur d’envoi (${relay}) a refusé ${refused.length > 1 ? 'les destinataires' : 'le destinataire'} ${refused.join(', ')} : l’email n’a été remis qu’aux autres.`,
              };
            return { ok: true, response: relayAnswer(String(info.response ?? '')) };
          },
          (err: unknown): Delivery => deliveryFailure(err as SmtpFailure, relay, timeoutMs),
        );
    },
  };
}
