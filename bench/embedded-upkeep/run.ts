/**
 * What the embedded database's upkeep (apps/server/src/db/embedded-upkeep.ts) costs: the time a
 * `VACUUM (ANALYZE) import_records` holds PGlite's one thread when it comes due, on a table of
 * N records (the seed's: about half a kilobyte of XML each).
 *
 *   npm run build -w @synchro/server
 *   npx tsx bench/embedded-upkeep/run.ts [--records 300000] [--no-readme]
 *
 * A fresh embedded database seeded by the admin command (`seed-history`, which ends vacuumed),
 * then opened by this process (no server running): a fifth of the rows inserted again as new
 * records (the upkeep's insert threshold) and vacuumed; then a fifth updated (state changes, the
 * dead-rows threshold) and vacuumed; and an ANALYZE alone. The first history page is timed
 * before and after each step, to show what the upkeep buys back.
 */
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine } from '../config-xml/machine.ts';
import { admin, createInstallation, prepareTarget, writeReadmeSection } from '../support/server.ts';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string', default: '300000' },
    'no-readme': { type: 'boolean', default: false },
  },
});
const RECORDS = Number(args.records);
const SYNC_ID = 'BENCHUPK';

const nf = new Intl.NumberFormat('en-US');
const n = (value: number) => nf.format(Math.round(value)).replace(/,/g, ' ');

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const target = await prepareTarget('embedded', 'upkeep');
const lines: string[] = [];
try {
  createInstallation(target, SYNC_ID, 'bench-client-id-0001');
  const seedMs = await timed(async () =>
    admin(target, 'seed-history', '--sync-id', SYNC_ID, '--records', String(RECORDS), '--transactions', '0'),
  );
  process.stdout.write(`seeded ${n(RECORDS)} records in ${n(seedMs / 1000)} s\n`);

  const db = await PGlite.create({
    dataDir: join(target.env.DATA_DIR ?? '', 'pglite'),
    extensions: { pg_trgm, unaccent },
  });
  try {
    const [inst] = (
      await db.query<{ id: string }>('SELECT id FROM installations WHERE sync_id = $1', [SYNC_ID])
    ).rows;
    const id = inst?.id ?? '';
    const firstPage = () =>
      timed(() =>
        db.query(
          `SELECT id, id_interne, etat, type_enreg, ref_doc, date_heure, num_ligne, type_element
           FROM import_records WHERE installation_id = $1 ORDER BY date_heure DESC, id DESC LIMIT 25`,
          [id],
        ),
      );
    const dayCount = () =>
      timed(() =>
        db.query(
          `SELECT count(*) FROM import_records WHERE installation_id = $1
             AND date_heure >= (SELECT max(date_heure) FROM import_records WHERE installation_id = $1) - interval '1 day'`,
          [id],
        ),
      );
    const fifth = Math.round(RECORDS / 5);

    const steps: {
      step: string;
      changeMs: number;
      upkeep: string;
      upkeepMs: number;
      before: number;
      after: number;
    }[] = [];

    // 1. A fifth inserted again as new records (what the connector adds), then the VACUUM it triggers.
    const insertMs = await timed(() =>
      db.query(
        `INSERT INTO import_records (installation_id, id_interne, type_enreg, ref_doc, date_heure, num_ligne,
           type_element, etat, log, enreg, has_file)
         SELECT installation_id, id_interne || '-2', type_enreg, ref_doc, date_heure + interval '1 second',
           num_ligne, type_element, etat, log, enreg, has_file
         FROM import_records WHERE installation_id = $1 ORDER BY id LIMIT $2`,
        [id, fifth],
      ),
    );
    let before = await dayCount();
    let upkeepMs = await timed(() => db.exec('VACUUM (ANALYZE) import_records'));
    steps.push({
      step: `${n(fifth)} records inserted`,
      changeMs: insertMs,
      upkeep: 'VACUUM (ANALYZE)',
      upkeepMs,
      before,
      after: await dayCount(),
    });

    // 2. A fifth of the rows change state (the Traité cycle, the connector's imports): dead rows.
    const updateMs = await timed(() =>
      db.query(
        `UPDATE import_records SET etat = CASE etat WHEN 1 THEN -1 ELSE 1 END, updated_at = now()
         WHERE id IN (SELECT id FROM import_records WHERE installation_id = $1 ORDER BY id DESC LIMIT $2)`,
        [id, fifth],
      ),
    );
    before = await firstPage();
    upkeepMs = await timed(() => db.exec('VACUUM (ANALYZE) import_records'));
    steps.push({
      step: `${n(fifth)} states changed`,
      changeMs: updateMs,
      upkeep: 'VACUUM (ANALYZE)',
      upkeepMs,
      before,
      after: await firstPage(),
    });

    // 3. ANALYZE alone (a tenth changed).
    before = await firstPage();
    upkeepMs = await timed(() => db.exec('ANALYZE import_records'));
    steps.push({
      step: 'statistics only',
      changeMs: 0,
      upkeep: 'ANALYZE',
      upkeepMs,
      before,
      after: await firstPage(),
    });

    lines.push(
      '## Embedded database upkeep (VACUUM and ANALYZE)',
      '',
      `Run \`npm run build -w @synchro/server && npx tsx bench/embedded-upkeep/run.ts\` (${n(RECORDS)} import ` +
        'records of one installation seeded by `seed-history`, then changed by this process with the server stopped).',
      `Machine: ${describeMachine()}. Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
      'The upkeep time is how long PGlite’s one thread is held: requests wait that long when it comes due ' +
        '(thresholds: docs/history.md, The embedded database). « Query before / after »: a count of the ' +
        'newest day for the insert step, the first history page for the others, in ms.',
      '',
      '| change | change took (ms) | upkeep | upkeep took (ms) | query before (ms) | query after (ms) |',
      '|---|---:|---|---:|---:|---:|',
      ...steps.map(
        (s) =>
          `| ${s.step} | ${s.changeMs ? n(s.changeMs) : '–'} | ${s.upkeep} | ${n(s.upkeepMs)} | ${s.before.toFixed(1)} | ${s.after.toFixed(1)} |`,
      ),
      '',
    );
  } finally {
    await db.close();
  }
} finally {
  await target.cleanup();
}
const text = lines.join('\n');
process.stdout.write(`\n${text}\n`);
if (!args['no-readme']) writeReadmeSection('bench/embedded-upkeep', text);
