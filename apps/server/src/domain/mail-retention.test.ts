import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation } from '../../test/helpers/app.ts';
import { openTestDb } from '../../test/helpers/db.ts';
import { readEnv } from '../config/env.ts';
import type { Db } from '../db/types.ts';
import type { MailState } from './mail-outbox.ts';
import { pruneMailOutbox, startMailRetention } from './mail-retention.ts';

// Runs on the embedded database, and on PostgreSQL with TEST_DATABASE_URL.
let db: Db;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
});

const NOW = new Date('2026-11-20T12:00:00Z');
const DAY = 86_400_000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

/** An outbox row in `state`, written `days` ago; its subject names it. */
async function mail(installationId: string, state: MailState, days: number, name: string) {
  await db.query(
    `INSERT INTO mail_outbox (installation_id, kind, recipients, state, due_at, created_at, subject)
     VALUES ($1, 'test', 'admin@exemple.fr', $2, $3, $3, $4)`,
    [installationId, state, ago(days), name],
  );
}

/** Every state old (120 days) and recent (10 days), for one installation. */
async function seed(syncId: string): Promise<string> {
  const { installation } = await addInstallation(db, { syncId });
  const states: MailState[] = ['sent', 'failed', 'unconfigured', 'pending', 'gathering', 'sending'];
  for (const state of states) {
    await mail(installation.id, state, 120, `old-${state}`);
    await mail(installation.id, state, 10, `new-${state}`);
  }
  return installation.id;
}

const left = async (installationId: string) =>
  (
    await db.query<{ subject: string }>(
      'SELECT subject FROM mail_outbox WHERE installation_id = $1 ORDER BY subject',
      [installationId],
    )
  ).map((r) => r.subject);

describe('the outbox retention (MAIL_RETENTION_DAYS)', () => {
  it('90 days unless set; a whole number of days at least 1', () => {
    expect(readEnv({}).mailRetentionDays).toBe(90);
    expect(readEnv({ MAIL_RETENTION_DAYS: '30' }).mailRetentionDays).toBe(30);
    expect(() => readEnv({ MAIL_RETENTION_DAYS: '0' })).toThrow(/^MAIL_RETENTION_DAYS invalide/);
    expect(() => readEnv({ MAIL_RETENTION_DAYS: 'trente' })).toThrow(/^MAIL_RETENTION_DAYS invalide/);
  });

  it('deletes the finished emails older than the retention in every installation, in batches; never one still to send', async () => {
    const a = await seed('MAILRETA');
    const b = await seed('MAILRETB');
    const batches: number[] = [];
    const deleted = await pruneMailOutbox(db, 90, NOW, {
      batch: 2,
      pauseMs: 0,
      onBatch: (n) => batches.push(n),
    });
    expect(deleted).toBe(6);
    // Never more than a batch at once: 2, 2, 2, then one that finds nothing.
    expect(batches).toEqual([2, 2, 2, 0]);
    const kept = [
      'new-failed',
      'new-gathering',
      'new-pending',
      'new-sending',
      'new-sent',
      'new-unconfigured',
      'old-gathering',
      'old-pending',
      'old-sending',
    ];
    expect(await left(a)).toEqual(kept);
    expect(await left(b)).toEqual(kept);
    // A second pass has nothing left to do.
    expect(await pruneMailOutbox(db, 90, NOW, { pauseMs: 0 })).toBe(0);
  });

  it('the oldest first, a pass ended early goes on at the next one', async () => {
    const c = await seed('MAILRETC');
    await mail(c, 'sent', 400, 'oldest-sent');
    expect(await pruneMailOutbox(db, 90, NOW, { batch: 1, pauseMs: 0, maxBatches: 1 })).toBe(1);
    expect(await left(c)).not.toContain('oldest-sent');
    expect(await left(c)).toContain('old-sent');
    let asked = 0;
    expect(await pruneMailOutbox(db, 90, NOW, { batch: 1, pauseMs: 0, stopped: () => asked++ > 0 })).toBe(1);
    expect(await pruneMailOutbox(db, 90, NOW, { pauseMs: 0 })).toBe(2);
    expect((await left(c)).filter((s) => s.startsWith('old-'))).toEqual([
      'old-gathering',
      'old-pending',
      'old-sending',
    ]);
  });

  it('the timed pass runs it and reports what it deleted', async () => {
    const d = await seed('MAILRETD');
    // The pass runs with the real clock: the rows' ages are set from it.
    await db.query(
      `UPDATE mail_outbox SET created_at = now() - CASE WHEN subject LIKE 'old-%' THEN interval '120 days' ELSE interval '10 days' END
       WHERE installation_id = $1`,
      [d],
    );
    const reports: (number | Error)[] = [];
    const retention = startMailRetention(db, 90, (r) => reports.push(r), 20);
    await expect.poll(() => reports.length, { timeout: 5000 }).toBeGreaterThan(0);
    await retention.stop();
    expect(reports[0]).toBe(3);
    expect((await left(d)).filter((s) => s.startsWith('old-'))).toEqual([
      'old-gathering',
      'old-pending',
      'old-sending',
    ]);
  });
});
