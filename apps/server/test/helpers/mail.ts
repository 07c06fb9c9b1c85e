import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { AppDeps } from '../../src/app.ts';
import type { Db } from '../../src/db/types.ts';
import { ConfigCache } from '../../src/domain/config-cache.ts';
import type { NewInstallation } from '../../src/domain/installation-admin.ts';
import { startMailSender, type Mailer, type MailSender } from '../../src/domain/mail-sender.ts';
import { readSmtp } from '../../src/config/mail-env.ts';
import { smtpTransport } from '../../src/mail/transport.ts';
import { signIn, testApp } from './app.ts';
import { connectorInstallation } from './connector.ts';

/**
 * What the email tests share: an app and a sender on one clock the test moves, a relay address
 * (a real SMTP server of helpers/smtp-relay.ts) or none, an installation with its Complément
 * settings saved through the console API.
 */

export const PUBLIC_URL = 'https://console.exemple.fr';
export const MAIL_FROM = 'Console Synchro <console@exemple.fr>';

export interface Clock {
  now: Date;
  advance(ms: number): void;
}

export function testClock(start = '2026-03-02T09:00:00Z'): Clock {
  const clock = {
    now: new Date(start),
    advance(ms: number) {
      clock.now = new Date(clock.now.getTime() + ms);
    },
  };
  return clock;
}

export function testMailer(relayUrl: string | null, extra: { timeoutMs?: number; ca?: string } = {}): Mailer {
  const smtp = relayUrl ? readSmtp({ SMTP_URL: relayUrl }) : null;
  return {
    transport: smtp ? smtpTransport({ ...smtp, ca: extra.ca }, extra.timeoutMs) : null,
    from: MAIL_FROM,
    publicUrl: PUBLIC_URL,
  };
}

export interface MailHarness {
  app: FastifyInstance;
  sender: MailSender;
  clock: Clock;
  close(): Promise<void>;
}

export async function mailHarness(
  db: Db,
  mailer: Mailer,
  clock = testClock(),
  extra: Partial<AppDeps> = {},
): Promise<MailHarness> {
  const app = await testApp(db, { ...extra, now: () => clock.now, mailer });
  const sender = startMailSender({
    db,
    mailer,
    configs: new ConfigCache(),
    now: () => clock.now,
    loop: false,
    offlineCheckMs: 0,
  });
  return {
    app,
    sender,
    clock,
    async close() {
      await sender.stop();
      await app.close();
    },
  };
}

export interface MailSettings {
  envoyerRapport?: boolean;
  notifErr?: boolean;
  notifImp?: boolean;
  notifInf?: boolean;
  mailDestinataire?: string;
}

/** An installation whose Complément is saved with `settings` (everything off otherwise). */
export async function mailInstallation(
  app: FastifyInstance,
  db: Db,
  syncId: string,
  settings: MailSettings,
  extra: Partial<NewInstallation> = {},
) {
  const inst = await connectorInstallation(db, syncId, extra);
  const cookie = await signIn(app, syncId);
  const view = await app.inject({ url: '/api/config/complement', headers: { cookie } });
  const data = view.json<{ data: Record<string, unknown> }>().data;
  const res = await app.inject({
    method: 'POST',
    url: '/api/database/complement',
    headers: { cookie },
    payload: {
      ...data,
      mailRapport: {
        envoyerRapport: false,
        notifErr: false,
        notifImp: false,
        notifInf: false,
        globaliserEnregImport: false,
        mailDestinataire: 'admin@exemple.fr; compta@exemple.fr',
        ...settings,
      },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...inst, cookie };
}

export interface OutboxRowView {
  id: string;
  kind: string;
  state: string;
  recipients: string;
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  attempts: number;
  last_error: string | null;
  due_at: Date;
  message_id: string | null;
  facts: Record<string, unknown>;
}

export async function outboxRows(db: Db, installationId: string): Promise<OutboxRowView[]> {
  return db.query<OutboxRowView>(
    `SELECT id::text AS id, kind, state, recipients, subject, text_body, html_body, attempts, last_error,
            due_at, message_id, facts
     FROM mail_outbox WHERE installation_id = $1 ORDER BY id`,
    [installationId],
  );
}
