import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Db } from '../../src/db/types.ts';

/**
 * A fresh, migrated database for one test file: PGlite in memory, or a new schema of the
 * PostgreSQL at TEST_DATABASE_URL (dropped when closed).
 */
export async function openTestDb(): Promise<Db> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const db = await openPglite();
    await migrate(db);
    return db;
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
    // Extensions live once per database; in public they serve every test schema.
    await admin.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  } finally {
    await admin.end();
  }
  const db = openPostgres({ connectionString: url, schema, max: 4 });
  await migrate(db);
  return {
    ...db,
    async close() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      try {
        await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

export const usingPostgres = () => Boolean(process.env.TEST_DATABASE_URL);
