import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../db/types.ts';
import type { MailFacts } from '../mail/facts.ts';
import { renderMail } from '../mail/render.ts';
import type { Delivery, MailTransport } from '../mail/transport.ts';
import { AUTOMATE_OFFLINE_AFTER_MS, type AutomateRegistration } from './automate-registrations.ts';
import type { ConfigCache } from './config-cache.ts';
import {
  claimDueMails,
  recordOutcome,
  releaseClaim,
  storeRendered,
  UNCONFIGURED_MESSAGE,
  type Outcome,
  type OutboxRow,
} from './mail-outbox.ts';
import { enqueueAutomateOffline, mailRulesFor } from './mail-rules.ts';

/**
 * The sender (docs/mail.md, Sending): a loop of each server process that claims the due outbox
 * rows (FOR UPDATE SKIP LOCKED, a lease), renders them at their first attempt, sends them through
 * the relay and records the outcome; retries with backoff up to 24 h after the row was written.
 * It also notices automates silent for 24 h. `stop()` lets the send under way finish.
 */

/** What sending needs: the relay (null without SMTP_URL), the sender address, the console's address. */
export interface Mailer {
  transport: MailTransport | null;
  from: string;
  publicUrl: string;
}

export interface SenderOptions {
  db: Db;
  mailer: Mailer;
  configs: ConfigCache;
  now?: () => Date;
  /** Between two looks at the outbox (5 s: a due email leaves within seconds). */
  pollMs?: number;
  /** Rows claimed at once. */
  batch?: number;
  /** How long a claimed row is its sender's: longer than the longest attempt. */
  leaseMs?: number;
  /** Between two looks for silent automates. */
  offlineCheckMs?: number;
  log?: (level: 'info' | 'warn' | 'error', message: string, details?: Record<string, unknown>) => void;
  /** false: no loop, passes run by `runOnce` only (tests). */
  loop?: boolean;
}

export interface MailSender {
  /** One pass now (tests, and the loop itself). */
  runOnce(): Promise<number>;
  /** Finishes the send under way, gives back what it had claimed, and stops. */
  stop(): Promise<void>;
}

/** An attempt failing for this long after the row was written is given up. */
export const GIVE_UP_AFTER_MS = 24 * 3600_000;
/** Silences older than this when first noticed (an upgrade, a long stop) are not emailed. */
const OFFLINE_NOTICE_WINDOW_MS = 7 * 24 * 3600_000;

/** Wait before attempt n+1 after n failed attempts: 1, 2, 4 … minutes, at most 2 hours. */
export function retryDelayMs(attempts: number): number {
  return Math.min(2 ** Math.max(0, attempts - 1) * 60_000, 2 * 3600_000);
}

export function messageIdOf(rowId: string, publicUrl: string): string {
  let host = 'localhost';
  try {
    host = new URL(publicUrl).hostname || host;
  } catch {
    // PUBLIC_URL is checked at start; keep the default otherwise.
  }
  return `<synchro-mail-${rowId}@${host}>`;
}

/** What an attempt's delivery means for the row. */
export function outcomeOf(
  row: Pick<OutboxRow, 'attempts' | 'createdAt' | 'kind'>,
  delivery: Delivery,
  now: Date,
): Outcome {
  if (delivery.ok) return { state: 'sent', at: now };
  // A test report says what happened to the person who asked: it is not sent again later.
  if (delivery.permanent || row.kind === 'test') return { state: 'failed', error: delivery.reason };
  const retryAt = new Date(now.getTime() + retryDelayMs(row.attempts));
  if (retryAt.getTime() - row.createdAt.getTime() > GIVE_UP_AFTER_MS) {
    return { state: 'failed', error: `${delivery.reason} Abandonné après 24 heures d’essais.` };
  }
  return { state: 'pending', retryAt, error: delivery.reason };
}

/** Renders a claimed row once (its stored rendering is what every attempt sends). */
export async function renderedRow(db: Queryable, row: OutboxRow, claim: string, mailer: Mailer) {
  if (row.subject !== null && row.textBody !== null && row.htmlBody !== null && row.messageId !== null)
    return { subject: row.subject, text: row.textBody, html: row.htmlBody, messageId: row.messageId };
  const rendered = renderMail({ kind: row.kind, facts: row.facts } as MailFacts, mailer.publicUrl);
  const messageId = messageIdOf(row.id, mailer.publicUrl);
  await storeRendered(db, row.id, claim, rendered, messageId);
  return { ...rendered, messageId };
}

/** One attempt of a claimed row, its outcome recorded. */
export async function attemptRow(
  db: Queryable,
  row: OutboxRow,
  claim: string,
  mailer: Mailer,
  now: () => Date,
): Promise<{ outcome: Outcome; delivery: Delivery | null }> {
  const mail = await renderedRow(db, row, claim, mailer);
  if (!mailer.transport) {
    const outcome: Outcome = { state: 'unconfigured', error: UNCONFIGURED_MESSAGE };
    await recordOutcome(db, row.id, claim, outcome);
    return { outcome, delivery: null };
  }
  const delivery = await mailer.transport.send({
    ...mail,
    from: mailer.from,
    to: row.recipients.split(', ').filter(Boolean),
  });
  const outcome = outcomeOf(row, delivery, now());
  await recordOutcome(db, row.id, claim, outcome);
  return { outcome, delivery };
}

interface SilentRow extends AutomateRegistration {
  installationId: string;
  syncId: string;
  timeZone: string;
}

/** Automates silent for 24 h whose silence was not noticed yet: one email each (NotifInf). */
export async function noticeSilentAutomates(db: Db, configs: ConfigCache, now: Date): Promise<number> {
  const threshold = new Date(now.getTime() - AUTOMATE_OFFLINE_AFTER_MS);
  const silent = await db.query<SilentRow>(
    `SELECT r.installation_id AS "installationId", r.ip, r.port, r.version, r.machine_name AS "machineName",
            r.reported_at AS "reportedAt", i.sync_id AS "syncId", i.time_zone AS "timeZone"
     FROM automate_registrations r
     JOIN installations i ON i.id = r.installation_id
     LEFT JOIN mail_state s ON s.installation_id = r.installation_id
     WHERE r.reported_at <= $1 AND NOT i.suspended
       AND (s.offline_noticed_for IS NULL OR s.offline_noticed_for <> r.reported_at)
     ORDER BY r.reported_at LIMIT 100`,
    [threshold],
  );
  let noticed = 0;
  for (const r of silent) {
    const done = await db.transaction(async (tx) => {
      // The report may have come meanwhile: only the silence still going on is noticed.
      const [current] = await tx.query<{ reportedAt: Date }>(
        `SELECT reported_at AS "reportedAt" FROM automate_registrations WHERE installation_id = $1 FOR SHARE`,
        [r.installationId],
      );
      if (!current || current.reportedAt.getTime() !== r.reportedAt.getTime()) return false;
      const rules = await mailRulesFor(tx, configs, {
        id: r.installationId,
        syncId: r.syncId,
        timeZone: r.timeZone,
      });
      const recent = now.getTime() - r.reportedAt.getTime() <= OFFLINE_NOTICE_WINDOW_MS;
      return enqueueAutomateOffline(tx, r.installationId, rules, r, now, recent);
    });
    if (done) noticed += 1;
  }
  return noticed;
}

export function startMailSender(options: SenderOptions): MailSender {
  const { db, mailer, configs } = options;
  const now = options.now ?? (() => new Date());
  const pollMs = options.pollMs ?? 5_000;
  const batch = options.batch ?? 10;
  const leaseMs = options.leaseMs ?? 120_000;
  const offlineCheckMs = options.offlineCheckMs ?? 60_000;
  const log = options.log ?? (() => {});
  let stopping = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let lastOfflineCheck = 0;

  const pass = async (): Promise<number> => {
    let handled = 0;
    if (Date.now() - lastOfflineCheck >= offlineCheckMs) {
      lastOfflineCheck = Date.now();
      const noticed = await noticeSilentAutomates(db, configs, now());
      if (noticed > 0) log('info', 'services d’automate silencieux depuis 24 h', { noticed });
    }
    for (;;) {
      const claim = randomUUID();
      const at = now();
      const rows = await db.transaction((tx) =>
        claimDueMails(tx, claim, at, new Date(at.getTime() + leaseMs), batch),
      );
      for (const [k, row] of rows.entries()) {
        if (stopping) {
          // Given back at once: another process, or this one's next start, sends them.
          for (const left of rows.slice(k)) {
            await releaseClaim(db, left.id, claim, now());
          }
          return handled;
        }
        const { outcome } = await attemptRow(db, row, claim, mailer, now);
        handled += 1;
        if (outcome.state !== 'sent')
          log(outcome.state === 'unconfigured' ? 'info' : 'warn', 'email non envoyé', {
            mail: row.id,
            kind: row.kind,
            state: outcome.state,
            reason: 'error' in outcome ? outcome.error : undefined,
          });
      }
      if (rows.length < batch) return handled;
    }
  };

  const runOnce = (): Promise<number> => {
    if (running) return running;
    running = pass().finally(() => {
      running = null;
    });
    return running;
  };

  const tick = () => {
    timer = null;
    if (stopping) return;
    runOnce()
      .catch((err: unknown) => log('error', 'envoi des emails impossible', { err }))
      .finally(() => {
        if (!stopping) timer = setTimeout(tick, pollMs);
      });
  };
  if (options.loop !== false) timer = setTimeout(tick, 0);

  return {
    runOnce,
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running?.catch(() => 0);
    },
  };
}
