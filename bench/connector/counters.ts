/**
 * What the batch counters cost as an installation's history grows (migrations 019, 021, 022): batches
 * of 500 import records inserted as the connector API writes them (counters deferred,
 * `synchro.batch_counts`), each followed by the counting of its rows twice, in alternating order:
 * the current `import_records_added` and the same function as migration 019 wrote it (created here
 * from the migration's text under another name). PostgreSQL only; a fresh schema, dropped at the end.
 *
 *   npm run build -w @synchro/server
 *   npx tsx bench/connector/counters.ts [--batches 200]
 *
 * Prints, per segment of 25 batches, the median time of each counting and the history's size.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { describeMachine } from '../config-xml/machine.ts';
import { createInstallation, prepareTarget, REPO } from '../support/server.ts';
import { apiParams, apiStatement } from './api-statement.ts';

const { values: args } = parseArgs({ options: { batches: { type: 'string', default: '200' } } });
const BATCHES = Number(args.batches);
const BATCH = 500;
const SEGMENT = 25;

/** Migration 019's import_records_added, under the name `counted_as_019`. */
function functionOf019(): string {
  const sql = readFileSync(join(REPO, 'apps/server/src/db/migrations/019-batch-counts.sql'), 'utf8');
  const start = sql.indexOf('CREATE FUNCTION import_records_added');
  const end = sql.indexOf('END $$;', start) + 'END $$;'.length;
  return sql.slice(start, end).replace('import_records_added', 'counted_as_019');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

console.log(describeMachine());
const target = await prepareTarget('postgres', 'counters');
try {
  createInstallation(target, 'COUNTERS', 'bench-client-id-0001');
  const client = new pg.Client({ connectionString: target.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(functionOf019());
    const [inst] = (
      await client.query<{ id: string }>(`SELECT id FROM installations WHERE sync_id = 'COUNTERS'`)
    ).rows;
    if (!inst) throw new Error('installation missing');
    const times: Record<'current' | 'as019', number[]> = { current: [], as019: [] };
    console.log('| history (records) | current median ms | as in 019 median ms |');
    console.log('|---:|---:|---:|');
    for (let b = 0; b < BATCHES; b++) {
      await client.query("BEGIN; SET LOCAL synchro.batch_counts = 'on'");
      const batch = Array.from({ length: BATCH }, (_, i) => b * BATCH + i);
      const { rows } = await client.query<{ id: string }>(
        apiStatement(BATCH),
        apiParams(inst.id, batch, 'C'),
      );
      const ids = rows.map((r) => r.id);
      const order = b % 2 === 0 ? (['current', 'as019'] as const) : (['as019', 'current'] as const);
      for (const which of order) {
        const fn = which === 'current' ? 'import_records_added' : 'counted_as_019';
        const started = performance.now();
        await client.query({ name: which, text: `SELECT ${fn}($1, $2::bigint[])`, values: [inst.id, ids] });
        times[which].push(performance.now() - started);
      }
      await client.query('COMMIT');
      if ((b + 1) % SEGMENT === 0) {
        const seg = (xs: number[]) => median(xs.slice(-SEGMENT)).toFixed(2);
        console.log(
          `| ${((b + 1) * BATCH).toLocaleString('fr-FR')} | ${seg(times.current)} | ${seg(times.as019)} |`,
        );
      }
    }
  } finally {
    await client.end();
  }
} finally {
  await target.cleanup();
}
