import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadMigrations, migrate } from '../../src/db/migrate.ts';
import { dumpPglite, openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { Db } from '../../src/db/types.ts';

/** Settings of the PostgreSQL pool of a test database (the embedded one has no pool). */
export interface TestDbOptions {
  /** Bound on waiting for a connection of the pool (the server's 5 s by default). */
  connectionTimeoutMillis?: number;
}

/**
 * A fresh, migrated database for one test file: PGlite in memory, or a new schema of the
 * PostgreSQL at TEST_DATABASE_URL (dropped when closed).
 */
export async function openTestDb(options: TestDbOptions = {}): Promise<Db> {
  const url = process.env.TEST_DATABASE_URL;
  return url ? openPostgresSchema(url, undefined, options) : openPgliteCopy();
}

/**
 * Creating an embedded cluster (initdb) costs seconds; loading a dump of one costs half a second.
 * The first test file dumps a migrated cluster to a temporary file named after the migrations;
 * the next ones start from it.
 */
async function openPgliteCopy(): Promise<Db> {
  const migrations = loadMigrations();
  const key = createHash('sha256')
    .update(migrations.map((m) => `${m.version}:${m.sql}`).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const templateFile = join(tmpdir(), `synchro-test-pglite-${key}.tar`);
  if (existsSync(templateFile)) {
    const db = await openPglite(undefined, new Blob([readFileSync(templateFile)]));
    await migrate(db);
    return db;
  }
  const db = await openPglite();
  await migrate(db);
  const dump = Buffer.from(await (await dumpPglite(db)).arrayBuffer());
  const partial = `${templateFile}.${process.pid}.tmp`;
  writeFileSync(partial, dump);
  renameSync(partial, templateFile);
  return db;
}

/**
 * Two connections (pools) to one fresh schema of the PostgreSQL at TEST_DATABASE_URL: what two
 * server processes sharing a database see. The first one's close drops the schema; close the
 * second one before.
 */
export async function openTestDbPair(): Promise<[Db, Db]> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('openTestDbPair needs TEST_DATABASE_URL');
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const first = await openPostgresSchema(url, schema);
  return [first, openPostgres({ connectionString: url, schema, max: 4 })];
}

async function openPostgresSchema(
  url: string,
  schema = `test_${randomBytes(6).toString('hex')}`,
  options: TestDbOptions = {},
): Promise<Db> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
    // Extensions live once per database; in public they serve every test schema.
    await admin.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  } finally {
    await admin.end();
  }
  const db = openPostgres({ connectionString: url, schema, max: 4, ...options });
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
