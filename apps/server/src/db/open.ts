import { join } from 'node:path';
import { acquireDataDirLock, type DataDirLock } from './lock.ts';
import { migrate } from './migrate.ts';
import { openPgliteInThread } from './pglite-thread.ts';
import { openPostgres } from './postgres.ts';
import type { Db } from './types.ts';

/** The PostgreSQL files of the embedded database, inside DATA_DIR. */
export const PGLITE_SUBDIR = 'pglite';

export interface DatabaseTarget {
  /** PostgreSQL when set, else the embedded database in dataDir. */
  databaseUrl?: string | undefined;
  dataDir: string;
}

/** Opens the database (taking the data folder's lock on the embedded one) and migrates it. */
export async function openDatabase(target: DatabaseTarget): Promise<Db> {
  if (target.databaseUrl) {
    const db = openPostgres({ connectionString: target.databaseUrl });
    await migrate(db).catch(async (err: unknown) => {
      await db.close();
      throw err;
    });
    return db;
  }
  const lock: DataDirLock = acquireDataDirLock(target.dataDir);
  let db: Db | undefined;
  try {
    // DATA_DIR also holds the lock, the session secret and the demo credentials.
    db = await openPgliteInThread(join(target.dataDir, PGLITE_SUBDIR));
    await migrate(db);
  } catch (err) {
    await db?.close().catch(() => {});
    lock.release();
    throw err;
  }
  const opened = db;
  // Closing the database releases the folder for the next owner.
  return {
    ...opened,
    async close() {
      try {
        await opened.close();
      } finally {
        lock.release();
      }
    },
  };
}
