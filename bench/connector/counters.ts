/**
 * What the batch counters cost as an installation's history grows (migrations 019 and 021): batches
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
import { connectorTimeToUtc } from '@synchro/contracts';
import { decodeConnectorText } from '@synchro/config-xml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { describeMachine } from '../config-xml/machine.ts';
import { createInstallation, prepareTarget, REPO } from '../support/server.ts';
import { recordOf, ZONE } from './rows.ts';

const { values: args } = parseArgs({ options: { batches: { type: 'string', default: '200' } } });
const BATCHES = Number(args.batches);
const BATCH = 500;
const SEGMENT = 25;

const COLUMNS = `installation_id, id_interne, type_enreg, ref_doc, date_heure, num_ligne,
    type_element, etat, log, log_blob, enreg, enreg_blob, has_file, sent_texts, received_at, updated_at`;
const VALUES_PER_ROW = 13;

function insertStatement(count: number): string {
  const tuples: string[] = [];
  for (let r = 0; r < count; r++) {
    const p = (c: number) => `$${3 + r * VALUES_PER_ROW + c}`;
    tuples.push(
      `($1, ${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}::timestamptz, ${p(4)}::int, ${p(5)}, ${p(6)}::smallint, ${p(7)}, ` +
        `${p(8)}::bigint, ${p(9)}, ${p(10)}::bigint, ${p(11)}::boolean, ${p(12)}::jsonb, $2, $2)`,
    );
  }
  return `INSERT INTO import_records (${COLUMNS}) VALUES ${tuples.join(', ')}
    ON CONFLICT (installation_id, id_interne) DO NOTHING RETURNING id`;
}

function batchParams(installationId: string, first: number): unknown[] {
  const params: unknown[] = [installationId, new Date()];
  for (let n = first; n < first + BATCH; n++) {
    const r = recordOf(n, 'C');
    params.push(
      r.IDInterne,
      decodeConnectorText(r.TypeEnreg),
      decodeConnectorText(r.RefDoc),
      connectorTimeToUtc(r.DateHeure, ZONE),
      r.NumLigne,
      decodeConnectorText(r.TypeElement),
      r.Etat,
      r.Log ?? '',
      null,
      r.Enreg,
      null,
      false,
      null,
    );
  }
  return params;
}

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
    console.log('| history (records) | current (021) median ms | as in 019 median ms |');
    console.log('|---:|---:|---:|');
    for (let b = 0; b < BATCHES; b++) {
      await client.query("BEGIN; SET LOCAL synchro.batch_counts = 'on'");
      const { rows } = await client.query<{ id: string }>(
        insertStatement(BATCH),
        batchParams(inst.id, b * BATCH),
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
