import type { Queryable } from '../db/types.ts';
import type { MailFacts, MailKind, RenderedMail, SyncActivity } from '../mail/facts.ts';

/**
 * The email outbox (`mail_outbox`, migration 009; docs/mail.md): rows written in the transaction
 * of what caused them, claimed by the senders with FOR UPDATE SKIP LOCKED and a lease, their
 * outcome recorded by the claim's holder only. And `mail_state`, the per-installation row every
 * writer of the installation's emails locks first.
 */

export type MailState = 'gathering' | 'pending' | 'sending' | 'sent' | 'failed' | 'unconfigured';

export const UNCONFIGURED_MESSAGE = 'Non envoyé : aucun serveur d’envoi configuré (SMTP_URL).';

export interface OutboxRow {
  id: string;
  installationId: string;
  kind: MailKind;
  recipients: string;
  facts: MailFacts['facts'];
  subject: string | null;
  textBody: string | null;
  htmlBody: string | null;
  state: MailState;
  attempts: number;
  dueAt: Date;
  createdAt: Date;
  sentAt: Date | null;
  lastError: string | null;
  messageId: string | null;
  claim: string | null;
}

const columns = (a: string) => `${a}.id::text AS id, ${a}.installation_id AS "installationId", ${a}.kind,
  ${a}.recipients, ${a}.facts, ${a}.subject, ${a}.text_body AS "textBody", ${a}.html_body AS "htmlBody",
  ${a}.state, ${a}.attempts, ${a}.due_at AS "dueAt", ${a}.created_at AS "createdAt", ${a}.sent_at AS "sentAt",
  ${a}.last_error AS "lastError", ${a}.message_id AS "messageId", ${a}.claim`;

export interface NewMail {
  installationId: string;
  mail: MailFacts;
  recipients: readonly string[];
  dueAt: Date;
  now: Date;
  state?: 'gathering' | 'pending' | 'sending';
  /** A row written already claimed (the test report, sent by its request). */
  claim?: { token: string; leaseUntil: Date };
}

export async function enqueueMail(tx: Queryable, m: NewMail): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `INSERT INTO mail_outbox (installation_id, kind, recipients, facts, state, due_at, created_at, claim, lease_until, attempts)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10) RETURNING id::text AS id`,
    [
      m.installationId,
      m.mail.kind,
      m.recipients.join(', '),
      JSON.stringify(m.mail.facts),
      m.claim ? 'sending' : (m.state ?? 'pending'),
      m.dueAt,
      m.now,
      m.claim?.token ?? null,
      m.claim?.leaseUntil ?? null,
      m.claim ? 1 : 0,
    ],
  );
  if (!row) throw new Error('outbox insert returned no row');
  return row.id;
}

// -------------------------------------------------------------------------------------------
// Per-installation state

export interface MailStateRow {
  gatheringId: string | null;
  lastDigestDueAt: Date | null;
  syncActivity: SyncActivity;
  offlineNoticedFor: Date | null;
}

/**
 * The installation's mail_state row, created when missing, locked until the transaction ends. One
 * round trip when it exists (every time but the first): the lock is taken by the read itself.
 */
export async function lockMailState(tx: Queryable, installationId: string): Promise<MailStateRow> {
  const read = async () =>
    (
      await tx.query<MailStateRow>(
        `SELECT gathering_id::text AS "gatheringId", last_digest_due_at AS "lastDigestDueAt",
                sync_activity AS "syncActivity", offline_noticed_for AS "offlineNoticedFor"
         FROM mail_state WHERE installation_id = $1 FOR UPDATE`,
        [installationId],
      )
    )[0];
  const found = await read();
  if (found) return found;
  await tx.query(
    `INSERT INTO mail_state (installation_id) VALUES ($1) ON CONFLICT (installation_id) DO NOTHING`,
    [installationId],
  );
  const row = await read();
  if (!row) throw new Error('mail_state row missing');
  return row;
}

export async function updateMailState(
  tx: Queryable,
  installationId: string,
  patch: Partial<MailStateRow>,
): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [installationId];
  const set = (column: string, value: unknown, cast = '') => {
    params.push(value);
    sets.push(`${column} = $${params.length}${cast}`);
  };
  if ('gatheringId' in patch) set('gathering_id', patch.gatheringId, '::bigint');
  if ('lastDigestDueAt' in patch) set('last_digest_due_at', patch.lastDigestDueAt);
  if ('syncActivity' in patch) set('sync_activity', JSON.stringify(patch.syncActivity), '::jsonb');
  if ('offlineNoticedFor' in patch) set('offline_noticed_for', patch.offlineNoticedFor);
  if (sets.length === 0) return;
  await tx.query(`UPDATE mail_state SET ${sets.join(', ')} WHERE installation_id = $1`, params);
}

/** The facts of a digest still gathering, locked; null when it is no longer gathering. */
export async function lockGatheringDigest(
  tx: Queryable,
  id: string,
): Promise<{ facts: MailFacts['facts'] } | null> {
  const [row] = await tx.query<{ facts: MailFacts['facts'] }>(
    `SELECT facts FROM mail_outbox WHERE id = $1 AND state = 'gathering' FOR UPDATE`,
    [id],
  );
  return row ?? null;
}

export async function updateFacts(tx: Queryable, id: string, facts: MailFacts['facts']): Promise<void> {
  await tx.query(`UPDATE mail_outbox SET facts = $2::jsonb WHERE id = $1`, [id, JSON.stringify(facts)]);
}

// -------------------------------------------------------------------------------------------
// The senders' side

/**
 * Claims up to `limit` rows due at `now`: pending or gathering rows whose time has come, and rows
 * whose sender's lease ran out (a process stopped while sending). Rows another sender is claiming
 * at this moment are skipped (SKIP LOCKED); a claimed row is the claimant's until `leaseUntil`.
 */
export async function claimDueMails(
  tx: Queryable,
  claim: string,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<OutboxRow[]> {
  return tx.query<OutboxRow>(
    `WITH due AS (
       SELECT id FROM mail_outbox
       WHERE (state IN ('pending', 'gathering') AND due_at <= $2) OR (state = 'sending' AND lease_until <= $2)
       ORDER BY due_at, id
       LIMIT $4
       FOR UPDATE SKIP LOCKED)
     UPDATE mail_outbox m SET state = 'sending', claim = $1, lease_until = $3, attempts = m.attempts + 1
     FROM due WHERE m.id = due.id
     RETURNING ${columns('m')}`,
    [claim, now, leaseUntil, limit],
  );
}

/** Stores what was rendered, so that every attempt sends it and the view shows it. */
export async function storeRendered(
  db: Queryable,
  id: string,
  claim: string,
  mail: RenderedMail,
  messageId: string,
): Promise<void> {
  await db.query(
    `UPDATE mail_outbox SET subject = $3, text_body = $4, html_body = $5, message_id = $6
     WHERE id = $1 AND claim = $2`,
    [id, claim, mail.subject, mail.text, mail.html, messageId],
  );
}

export type Outcome =
  | { state: 'sent'; at: Date }
  | { state: 'pending'; retryAt: Date; error: string }
  | { state: 'failed' | 'unconfigured'; error: string };

/** Records the outcome of a claimed row; false when the claim was lost (another sender took it). */
export async function recordOutcome(
  db: Queryable,
  id: string,
  claim: string,
  outcome: Outcome,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE mail_outbox SET state = $3, lease_until = NULL, claim = NULL,
       sent_at = CASE WHEN $3 = 'sent' THEN $4::timestamptz ELSE sent_at END,
       due_at = CASE WHEN $3 = 'pending' THEN $4::timestamptz ELSE due_at END,
       last_error = $5
     WHERE id = $1 AND claim = $2 RETURNING 1`,
    [
      id,
      claim,
      outcome.state,
      outcome.state === 'sent' ? outcome.at : outcome.state === 'pending' ? outcome.retryAt : null,
      outcome.state === 'sent' ? null : outcome.error,
    ],
  );
  return rows.length === 1;
}

/** Gives a claimed row back untried (the sender is stopping): due at once for the others. */
export async function releaseClaim(db: Queryable, id: string, claim: string, now: Date): Promise<void> {
  await db.query(
    `UPDATE mail_outbox SET state = 'pending', claim = NULL, lease_until = NULL, due_at = $3,
       attempts = greatest(attempts - 1, 0)
     WHERE id = $1 AND claim = $2`,
    [id, claim, now],
  );
}

/** Rows waiting to be sent (gathering, pending, sending), every installation: the outbox depth. */
export async function outboxDepth(db: Queryable): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM mail_outbox WHERE state IN ('gathering', 'pending', 'sending')`,
  );
  return row?.n ?? 0;
}

// -------------------------------------------------------------------------------------------
// « Emails envoyés »

export async function listMails(db: Queryable, installationId: string, limit: number): Promise<OutboxRow[]> {
  return db.query<OutboxRow>(
    `SELECT ${columns('m')} FROM mail_outbox m WHERE installation_id = $1 ORDER BY id DESC LIMIT $2`,
    [installationId, limit],
  );
}

export async function findMail(db: Queryable, installationId: string, id: string): Promise<OutboxRow | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const [row] = await db.query<OutboxRow>(
    `SELECT ${columns('m')} FROM mail_outbox m WHERE installation_id = $1 AND id = $2::bigint`,
    [installationId, id],
  );
  return row ?? null;
}

/** Test reports of the installation since `since` (the rate limit), and the oldest of them. */
export async function countTests(
  tx: Queryable,
  installationId: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await tx.query<{ count: number; oldest: Date | null }>(
    `SELECT count(*)::int AS count, min(created_at) AS oldest FROM mail_outbox
     WHERE installation_id = $1 AND kind = 'test' AND created_at > $2`,
    [installationId, since],
  );
  return { count: row?.count ?? 0, oldest: row?.oldest ?? null };
}
