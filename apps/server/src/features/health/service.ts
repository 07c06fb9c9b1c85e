import type { Db } from '../../db/types.ts';
import { latestMigrationVersion } from '../../db/migrate.ts';

const READY_TIMEOUT_MS = 2_000;

/** Null when the database answers within 2 s and every migration is applied; else why not. */
export async function databaseReady(db: Db): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('base de données sans réponse'), READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      (async () => {
        const rows = await db.query<{ version: number }>(
          'SELECT max(version) AS version FROM schema_migrations',
        );
        return (rows[0]?.version ?? 0) >= latestMigrationVersion() ? null : 'migrations non appliquées';
      })(),
      late,
    ]);
  } catch {
    return 'base de données injoignable';
  } finally {
    clearTimeout(timer);
  }
}
