import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/helpers/db.ts';
import { insertRecords } from '../../test/helpers/history.ts';
import { addInstallation } from '../../test/helpers/app.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite.ts';
import type { Db } from '../db/types.ts';
import { writeBlobs } from './blobs.ts';
import { ensureStorageRoom, storageUse } from './storage.ts';

/** The bytes each installation keeps (migration 006's triggers) against what the tables hold. */

const COUNTED = `SELECT (coalesce((SELECT sum(coalesce(octet_length(enreg), 0) + octet_length(log)) FROM import_records WHERE installation_id = $1), 0)
  + coalesce((SELECT sum(octet_length(log)) FROM transaction_logs WHERE installation_id = $1), 0)
  + coalesce((SELECT sum(coalesce(octet_length(content), 0)) FROM import_record_files WHERE installation_id = $1), 0)
  + coalesce((SELECT sum(octet_length(data)) FROM stored_blob_chunks WHERE installation_id = $1), 0))::int AS n`;

async function expectCounted(db: Db, installationId: string): Promise<number> {
  const [tables] = await db.query<{ n: number }>(COUNTED, [installationId]);
  const { usedBytes } = await storageUse(db, installationId, 1);
  expect(usedBytes).toBe(tables?.n);
  return usedBytes;
}

describe('storage counters', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDb();
  });
  afterAll(async () => {
    await db.close();
  });

  it('follow every kind of write: records, files, transactions, values apart, updates, deletes', async () => {
    const { installation: a } = await addInstallation(db, { syncId: 'STORE001' });
    const { installation: b } = await addInstallation(db, { syncId: 'STORE002' });
    expect(await expectCounted(db, a.id)).toBe(0);
    await insertRecords(db, a.id, [
      {
        IDInterne: 'R1',
        DateHeure: '2025-01-01T10:00:00Z',
        Log: 'journal Ã©',
        file: { name: 'a.pdf', content: Buffer.alloc(500, 1) },
      },
      { IDInterne: 'R2', DateHeure: '2025-01-02T10:00:00Z' },
    ]);
    await insertRecords(db, b.id, [{ IDInterne: 'R1', DateHeure: '2025-01-01T10:00:00Z' }]);
    await db.query(
      `INSERT INTO transaction_logs (installation_id, tx_id, date_heure_trt, log) VALUES ($1, 'T1', now(), $2)`,
      [a.id, 'x'.repeat(1234)],
    );
    const first = await expectCounted(db, a.id);
    expect(first).toBeGreaterThan(1234 + 500);
    const [blob] = await writeBlobs(db, a.id, ['é'.repeat(300_000)]);
    expect(await expectCounted(db, a.id)).toBe(first + 600_000);
    await db.query(
      `UPDATE import_records SET enreg = NULL, enreg_blob = $2 WHERE installation_id = $1 AND id_interne = 'R2'`,
      [a.id, blob],
    );
    await expectCounted(db, a.id);
    await db.query(`UPDATE import_records SET etat = -1 WHERE installation_id = $1`, [a.id]);
    await db.query(`UPDATE transaction_logs SET log = 'court' WHERE installation_id = $1`, [a.id]);
    await expectCounted(db, a.id);
    // Deleting the record deletes its value apart (and its file by cascade): both leave the count.
    await db.query(`DELETE FROM import_records WHERE installation_id = $1`, [a.id]);
    expect(await db.query('SELECT id FROM stored_blobs WHERE installation_id = $1', [a.id])).toEqual([]);
    expect(await expectCounted(db, a.id)).toBe(5);
    // The other installation's count never moved.
    const bUsed = await expectCounted(db, b.id);
    expect(bUsed).toBeGreaterThan(0);
  });

  it('507 only when the new bytes would pass the quota', async () => {
    const { installation } = await addInstallation(db, { syncId: 'STORE003' });
    await insertRecords(db, installation.id, [{ IDInterne: 'Q1', DateHeure: '2025-01-01T10:00:00Z' }]);
    const { usedBytes } = await storageUse(db, installation.id, 1);
    await expect(ensureStorageRoom(db, installation.id, 100, usedBytes + 100)).resolves.toBeUndefined();
    const refused = await ensureStorageRoom(db, installation.id, 101, usedBytes + 100).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ status: 507, code: 'insufficient-storage' });
    await db.query('UPDATE installations SET storage_quota_bytes = $2 WHERE id = $1', [
      installation.id,
      usedBytes + 1000,
    ]);
    expect(await storageUse(db, installation.id, 1)).toEqual({ usedBytes, quotaBytes: usedBytes + 1000 });
    await expect(ensureStorageRoom(db, installation.id, 1000, 1)).resolves.toBeUndefined();
  });
});

describe('migration 006 on a database with history in it', () => {
  it('counts what is stored, and gives every file its installation', async () => {
    const db = await openPglite();
    try {
      const all = loadMigrations();
      await migrate(
        db,
        all.filter((m) => m.version < 6),
      );
      const [inst] = await db.query<{ id: string }>(
        `INSERT INTO installations (sync_id, client_id_hash) VALUES ('OLD00001', 'x') RETURNING id`,
      );
      const [rec] = await db.query<{ id: string }>(
        `INSERT INTO import_records (installation_id, id_interne, date_heure, enreg, log)
         VALUES ($1, 'R1', now(), '<a>été</a>', 'log') RETURNING id`,
        [inst?.id],
      );
      await db.query(
        `INSERT INTO import_record_files (record_id, name, size, content) VALUES ($1, 'f', 3, '\\x010203')`,
        [rec?.id],
      );
      await db.query(
        `INSERT INTO transaction_logs (installation_id, tx_id, date_heure_trt, log) VALUES ($1, 'T1', now(), 'abcd')`,
        [inst?.id],
      );
      await migrate(db, all);
      const [file] = await db.query<{ installation_id: string }>(
        'SELECT installation_id FROM import_record_files',
      );
      expect(file?.installation_id).toBe(inst?.id);
      expect((await storageUse(db, inst?.id as string, 1)).usedBytes).toBe(12 + 3 + 3 + 4);
    } finally {
      await db.close();
    }
  });
});
