import { randomUUID } from 'node:crypto';
import {
  emailAddresses,
  OUTBOX_LIST_SIZE,
  type TOutboxMail,
  type TOutboxMailDetail,
  type TTestReportAnswer,
} from '@synchro/contracts';
import { readLastSync } from '@synchro/config-xml';
import type { AppContext } from '../../context.ts';
import { recordAudit } from '../../domain/audit.ts';
import { documentOr422 } from '../../domain/config-reading.ts';
import type { Installation } from '../../domain/installations.ts';
import {
  countTests,
  enqueueMail,
  findMail,
  listMails,
  lockMailState,
  type OutboxRow,
} from '../../domain/mail-outbox.ts';
import { lastSyncFacts } from '../../domain/mail-rules.ts';
import { attemptRow } from '../../domain/mail-sender.ts';
import { connectorTimeZone } from '../../domain/time-zone.ts';
import { AppError } from '../../http/errors.ts';

/**
 * « Test rapport » and « Emails envoyés » (docs/mail.md). A test report goes through the
 * outbox like every email: written already claimed by its request, sent at once, its outcome told
 * in French; at most TEST_REPORT_LIMIT per quarter of an hour and installation.
 */

export const TEST_REPORT_LIMIT = { max: 5, windowMs: 15 * 60_000 };
/** Longer than an attempt (10 s): the sender loop takes the row over only if this request died. */
const TEST_LEASE_MS = 60_000;

export const NOT_CONFIGURED_MESSAGE = 'Aucun serveur d’envoi configuré (SMTP_URL)';

export interface TestReportRequest {
  installation: Installation;
  configVersion: number;
  address: string;
  userAddress: string;
}

function rateLimited(oldest: Date | null, now: Date): AppError {
  const retryMs = Math.max(
    1000,
    (oldest?.getTime() ?? now.getTime()) + TEST_REPORT_LIMIT.windowMs - now.getTime(),
  );
  const minutes = Math.ceil(retryMs / 60_000);
  return new AppError(
    429,
    `Trop de rapports de test\u00a0: au plus ${TEST_REPORT_LIMIT.max} par quart d’heure. Réessayez dans ${minutes} minute${minutes > 1 ? 's' : ''}.`,
    'rate-limited',
    { 'Retry-After': String(Math.ceil(retryMs / 1000)) },
  );
}

export async function sendTestReport(ctx: AppContext, req: TestReportRequest): Promise<TTestReportAnswer> {
  const { installation } = req;
  const recipients = emailAddresses(req.address);
  const config = await ctx.configs.at(ctx.db, installation.id, req.configVersion);
  const doc = documentOr422(config);
  const zone = connectorTimeZone(config, installation);
  const lastSync = readLastSync(doc).dateHeure === null ? null : lastSyncFacts(doc, zone);
  const now = ctx.now();
  const claim = randomUUID();
  const id = await ctx.db.transaction(async (tx) => {
    // The installation's mail_state row serialises its test reports: the count is exact.
    await lockMailState(tx, installation.id);
    const recent = await countTests(
      tx,
      installation.id,
      new Date(now.getTime() - TEST_REPORT_LIMIT.windowMs),
    );
    if (recent.count >= TEST_REPORT_LIMIT.max) throw rateLimited(recent.oldest, now);
    return enqueueMail(tx, {
      installationId: installation.id,
      mail: { kind: 'test', facts: { syncId: installation.syncId, zone, lastSync } },
      recipients,
      dueAt: now,
      now,
      claim: { token: claim, leaseUntil: new Date(now.getTime() + TEST_LEASE_MS) },
    });
  });
  const row = (await findMail(ctx.db, installation.id, id)) as OutboxRow;
  const { outcome, delivery } = await attemptRow(ctx.db, row, claim, ctx.mailer, ctx.now);
  const answer: TTestReportAnswer =
    outcome.state === 'sent'
      ? { outcome: 'sent', message: `Rapport de test envoyé à ${recipients.join(', ')}`, mailId: id }
      : outcome.state === 'unconfigured'
        ? { outcome: 'not-configured', message: NOT_CONFIGURED_MESSAGE, mailId: id }
        : {
            outcome: delivery && !delivery.ok && delivery.timeout ? 'timeout' : 'refused',
            message: 'error' in outcome ? outcome.error : 'Envoi impossible.',
            mailId: id,
          };
  await recordAudit(ctx.db, {
    installationId: installation.id,
    syncId: installation.syncId,
    actor: 'user',
    action: 'mail.test-report',
    address: req.userAddress,
    details: { mail: id, outcome: answer.outcome, recipients: recipients.length },
  });
  return answer;
}

function listItem(row: OutboxRow): TOutboxMail {
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    recipients: row.recipients,
    subject: row.subject,
    createdAt: row.createdAt.toISOString(),
    dueAt: row.dueAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    attempts: row.attempts,
    lastError: row.lastError,
  };
}

export async function outboxList(ctx: AppContext, installationId: string): Promise<TOutboxMail[]> {
  return (await listMails(ctx.db, installationId, OUTBOX_LIST_SIZE)).map(listItem);
}

export async function outboxMail(
  ctx: AppContext,
  installationId: string,
  id: string,
): Promise<TOutboxMailDetail> {
  const row = await findMail(ctx.db, installationId, id);
  if (!row) throw new AppError(404, 'Email introuvable.', 'not-found');
  return { ...listItem(row), text: row.textBody, html: row.htmlBody };
}
