/**
 * What the connector's status writes cost the configuration history, per installation and day:
 * one sync a quarter of an hour (96 PATCH of DerSynchro, Info and the source statuses through the
 * connector API of the built server, on PostgreSQL), then the bytes of their history rows (kept
 * without the document: docs/config-history.md, Storage) beside what the same 96 versions would
 * take stored whole (the stored size of the current document's text, TOAST compression included).
 *
 *   npm run build && npx tsx bench/config-history/storage.ts [--writes 96]
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createInstallation, prepareTarget, startServer, stopServer } from '../support/server.ts';

const { values: args } = parseArgs({ options: { writes: { type: 'string', default: '96' } } });
const WRITES = Number(args.writes);
const SYNC_ID = 'BENCHSTORE';

const target = await prepareTarget('postgres', 'store');
try {
  const token = createInstallation(target, SYNC_ID, 'bench-store-client-id-001');
  const server = await startServer(target, 5498);
  try {
    for (let n = 0; n < WRITES; n++) {
      const at = new Date(Date.UTC(2026, 10, 26, 0, 15 * n));
      const stamp = at.toISOString().replace(/\D/g, '').slice(0, 17);
      const res = await fetch(`${server.base}/api/connector/v1/configuration`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          Info: { DateMAJConfig: stamp, NuxiAutomateLibelle: 'Version : 6.11.23.9' },
          DerSynchro: {
            DateHeure: stamp,
            TypeDeSync: 'IncrÃ©mentale',
            Duree: '00:01:0' + (n % 10),
            NbEnreg: String(100 + n),
            Vitesse: '5927',
            Taille: '1,2 Mo',
          },
          Sources: [
            { index: 1, Status: '1', StatusLibelle: ' Ok : SQL' },
            { index: 2, Status: String(n % 2), StatusLibelle: n % 2 ? ' Ok : SQL' : ' Erreur' },
          ],
        }),
      });
      if (!res.ok) throw new Error(`PATCH ${res.status} ${await res.text()}`);
    }
  } finally {
    await stopServer(server);
  }
  const db = new pg.Client({ connectionString: target.env.DATABASE_URL });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: number; bytes: number; avg: number; doc: number; raw: number }>(
      `SELECT count(*)::int AS n, sum(pg_column_size(v.*))::int AS bytes, avg(pg_column_size(v.*))::int AS avg,
              (SELECT coalesce(pg_column_size(c.text), t.bytes) FROM configurations c
                 LEFT JOIN configuration_texts t ON t.id = c.text_id WHERE c.installation_id = i.id)::int AS doc,
              (SELECT coalesce(octet_length(c.text),
                        (SELECT sum(octet_length(k.data)) FROM configuration_text_chunks k WHERE k.text_id = c.text_id))
                 FROM configurations c WHERE c.installation_id = i.id)::int AS raw
       FROM configuration_versions v JOIN installations i ON i.id = v.installation_id
       WHERE i.sync_id = $1 AND v.author = 'connector' GROUP BY i.id`,
      [SYNC_ID],
    );
    const r = rows[0]!;
    const kb = (b: number) => `${(b / 1024).toLocaleString('fr-FR', { maximumFractionDigits: 1 })} KB`;
    console.log(
      [
        `${r.n} connector versions (one day at one sync a quarter of an hour):`,
        `  kept as history rows without the text: ${kb(r.bytes)} (${r.avg} bytes a row: scope generations, summary, author, time)`,
        `  the same stored whole: ${kb(r.n * r.doc)} (${kb(r.doc)} stored a version, ${kb(r.raw)} of text before compression; ${kb(r.n * r.raw)} uncompressed)`,
        `  ratio: ${((r.n * r.doc) / r.bytes).toFixed(0)}×`,
      ].join('\n'),
    );
  } finally {
    await db.end();
  }
} finally {
  await target.cleanup();
}
