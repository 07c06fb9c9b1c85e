/**
 * What a deletion's counter triggers cost (migrations 023, 024): the retention's own statement
 * (domain/history-retention.ts: the oldest `--delete` rows of one installation, `FOR UPDATE SKIP
 * LOCKED`) on import records and on transactions, rolled back after each round, in three ways one
 * after the other in an order that alternates:
 * - current: the triggers of the build's migrations;
 * - as in 023: the same data in a second schema whose four delete functions are migration 023's
 *   (created from the migration's text), which grouped the deleted rows twice per counter table;
 * - floor: the same DELETE with every trigger off (`session_replication_role = replica`).
 * The first five rounds are given apart (plpgsql's plans for the values of a connection's first
 * five calls), then the rest. PostgreSQL only; two fresh schemas, dropped at the end.
 *
 *   npm run build -w @synchro/server
 *   npx tsx bench/history/deletion.ts [--rows 120000] [--delete 2000] [--rounds 25]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { describeMachine } from '../config-xml/machine.ts';
import { createInstallation, median, prepareTarget, REPO, type Target } from '../support/server.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '120000' },
    delete: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '25' },
  },
});
const ROWS = Number(args.rows);
const DELETE = Number(args.delete);
const ROUNDS = Number(args.rounds);
const SYNC_ID = 'DELETION';

/** Migration 023's delete functions (its text, unchanged): they replace the schema's own. */
function deleteFunctionsOf023(): string {
  const sql = readFileSync(
    join(REPO, 'apps/server/src/db/migrations/023-counter-triggers-lock-order.sql'),
    'utf8',
  );
  const names = [
    'import_records_activity_delete',
    'import_records_count_delete',
    'transaction_logs_activity_delete',
    'transaction_logs_count_delete',
  ];
  return names
    .map((name) => {
      const start = sql.indexOf(`CREATE OR REPLACE FUNCTION ${name}()`);
      if (start < 0) throw new Error(`${name} missing from 023`);
      return sql.slice(start, sql.indexOf('END $$;', start) + 'END $$;'.length);
    })
    .join('\n');
}

/**
 * ROWS records and ROWS transactions over 120 days (25 terminals, errors among them), inserted by
 * plain INSERTs in parts: the triggers count them, in the zone of « Activité ».
 */
async function seed(client: pg.Client, installationId: string): Promise<void> {
  await client.query(`INSERT INTO activity_zone (installation_id, zone) VALUES ($1, 'Europe/Paris')`, [
    installationId,
  ]);
  const part = 20_000;
  for (let first = 0; first < ROWS; first += part) {
    const last = Math.min(ROWS, first + part) - 1;
    const at = `'2025-01-01T00:00:00Z'::timestamptz + n * (interval '120 days' / ${ROWS})`;
    await client.query(
      `INSERT INTO import_records (installation_id, id_interne, type_enreg, ref_doc, date_heure, num_ligne,
         type_element, etat, log, enreg, has_file, received_at, updated_at)
       SELECT $1, 'R' || n, 'Devis', 'DE' || n, ${at}, 0, 'Création', (n % 3) - 1, 'Import effectué',
         '<Devis><Ref>DE' || n || '</Ref></Devis>', false, now(), now()
       FROM generate_series(${first}, ${last}) n`,
      [installationId],
    );
    await client.query(
      `INSERT INTO transaction_logs (installation_id, tx_id, err, date_heure_trt, num_transaction, type_doc,
         ref_doc, id_tablette, libelle_tablette, log, received_at)
       SELECT $1, 'T' || n, (n % 7 = 0)::int, ${at}, n::text, 'DEVIS', 'DE' || n,
         'tab' || (n % 25), 'Tablette ' || (n % 25), 'Transaction traitée', now()
       FROM generate_series(${first}, ${last}) n`,
      [installationId],
    );
  }
  await client.query('ANALYZE');
}

interface Side {
  client: pg.Client;
  installationId: string;
}

async function prepareSide(target: Target, as023: boolean): Promise<Side> {
  createInstallation(target, SYNC_ID, 'bench-client-id-0001');
  const client = new pg.Client({ connectionString: target.env.DATABASE_URL });
  await client.connect();
  if (as023) await client.query(deleteFunctionsOf023());
  const { rows } = await client.query<{ id: string }>('SELECT id FROM installations WHERE sync_id = $1', [
    SYNC_ID,
  ]);
  const installationId = rows[0]?.id;
  if (!installationId) throw new Error('installation missing');
  await seed(client, installationId);
  return { client, installationId };
}

const TABLES = { import_records: 'date_heure', transaction_logs: 'date_heure_trt' } as const;
type Table = keyof typeof TABLES;

/** The retention's statement, in a transaction rolled back: the DELETE's time, ms. */
async function timedDeletion(side: Side, table: Table, triggersOff: boolean): Promise<number> {
  const time = TABLES[table];
  await side.client.query('BEGIN');
  if (triggersOff) await side.client.query('SET LOCAL session_replication_role = replica');
  const started = performance.now();
  const { rowCount } = await side.client.query({
    name: `delete-${table}`,
    text: `DELETE FROM ${table} WHERE id IN (
             SELECT id FROM ${table} WHERE installation_id = $1 AND ${time} < $2
             ORDER BY ${time}, id LIMIT $3 FOR UPDATE SKIP LOCKED)
           RETURNING ${time} AS at, id::text AS id`,
    values: [side.installationId, '2100-01-01T00:00:00Z', DELETE],
  });
  const ms = performance.now() - started;
  await side.client.query('ROLLBACK');
  if (rowCount !== DELETE) throw new Error(`${table}: ${rowCount} rows deleted, ${DELETE} expected`);
  return ms;
}

console.log(describeMachine());
const targets = [await prepareTarget('postgres', 'deletion'), await prepareTarget('postgres', 'deletion023')];
try {
  const current = await prepareSide(targets[0]!, false);
  const as023 = await prepareSide(targets[1]!, true);
  try {
    const ways = {
      current: (table: Table) => timedDeletion(current, table, false),
      'as in 023': (table: Table) => timedDeletion(as023, table, false),
      'floor (no trigger)': (table: Table) => timedDeletion(current, table, true),
    };
    type Way = keyof typeof ways;
    const names = Object.keys(ways) as Way[];
    console.log(
      `\n${ROWS.toLocaleString('fr-FR')} records and as many transactions in one installation; ` +
        `${DELETE.toLocaleString('fr-FR')} rows deleted per round, ${ROUNDS} rounds (medians, ms)\n`,
    );
    // plpgsql plans a statement's first five calls of a connection for the values it is given, then
    // keeps a generic plan: the first five rounds apart from the rest.
    const FIRST = 5;
    console.log(
      '| table | rounds | current | as in 023 | floor (no trigger) | current / 023 | current / floor |',
    );
    console.log('|---|---|---:|---:|---:|---:|---:|');
    for (const table of Object.keys(TABLES) as Table[]) {
      const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<Way, number[]>;
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? names : [...names].reverse();
        for (const n of order) times[n].push(await ways[n](table));
      }
      const parts = [
        [`1–${FIRST}`, 0, FIRST],
        [`${FIRST + 1}–${ROUNDS}`, FIRST, ROUNDS],
      ] as const;
      for (const [label, from, to] of parts) {
        const m = Object.fromEntries(names.map((n) => [n, median(times[n].slice(from, to))])) as Record<
          Way,
          number
        >;
        console.log(
          `| ${table} | ${label} | ${m.current.toFixed(1)} | ${m['as in 023'].toFixed(1)} | ` +
            `${m['floor (no trigger)'].toFixed(1)} | ${(m.current / m['as in 023']).toFixed(2)} | ` +
            `${(m.current / m['floor (no trigger)']).toFixed(2)} |`,
        );
      }
    }
  } finally {
    await current.client.end();
    await as023.client.end();
  }
} finally {
  for (const t of targets) await t.cleanup();
}
