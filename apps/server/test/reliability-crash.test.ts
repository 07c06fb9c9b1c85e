import { parseConfig } from '@synchro/config-xml';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseTarget } from '../src/db/open.ts';
import { exactText, storedText } from '../src/db/text-column.ts';
import { addInstallation } from './helpers/app.ts';
import { CONNECTOR, importRecord } from './helpers/connector.ts';
import { freshDatabase } from './helpers/fresh-database.ts';
import { isOk, send, signInOver } from './helpers/http-client.ts';
import { SECTION_SAVES, valuesIn, type SectionSave } from './helpers/section-saves.ts';
import { startServerProcess, type ServerProcess } from './helpers/server-process.ts';
import { inPostgresPass } from './helpers/passes.ts';

/**
 * `kill -9` of the real server process in the middle of console saves, connector writes and a
 * connector batch, twice (the file stays under 90 s on a busy machine), then a start on the same data: the configuration is always one of
 * its versions, whole; every save, write and batch acknowledged before the kill is there; a batch
 * is all or nothing. The embedded database (PGlite files in DATA_DIR, recovered at the next open)
 * and PostgreSQL (TEST_DATABASE_URL: a database of the test's own). docs/reliability.md, "kill -9".
 */
const BATCH = 300;
const SYNC_ID = 'CRASH001';
const LIBELLE = 'x'.repeat(1_000);

interface Acked {
  kind: 'save' | 'connector';
  version: number;
  save?: SectionSave;
  n: number;
}
interface Batch {
  prefix: string;
  round: number;
  status: number | 'pending';
  /** Sent before the kill and not answered. */
  cut: boolean;
}

async function runAll(steps: (() => Promise<void> | void)[]): Promise<void> {
  for (const step of steps) await step();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function crashRounds(target: DatabaseTarget, env: Record<string, string>, rounds: number) {
  // The installation, created before the server opens the data (no demo then).
  const setup = await openDatabase(target);
  const { connectorToken: token } = await addInstallation(setup, { syncId: SYNC_ID });
  await setup.close();

  const acked: Acked[] = [];
  const batches: Batch[] = [];
  const snapshots: { version: number; text: string }[] = [];
  const startTimes: number[] = [];
  let n = 0;
  let server: ServerProcess | undefined;

  for (let round = 0; round <= rounds; round += 1) {
    // Every version kept, so that each acknowledged one can be read back (retention: its own test).
    server = await startServerProcess({ CONFIG_VERSIONS_KEEP: '100000', ...env });
    startTimes.push(server.startMs);
    const base = server.baseUrl;
    // What the server serves after the kill: a whole document, one of the versions (checked below).
    const config = await send(base, `${CONNECTOR}/configuration`, { token });
    expect(config.status, config.body).toBe(200);
    expect(() => parseConfig(config.body)).not.toThrow();
    snapshots.push({
      version: Number(/\d+/.exec(config.headers?.get('etag') ?? '')?.[0]),
      text: config.body,
    });
    if (round === rounds) break;

    const cookie = await signInOver(base, SYNC_ID);
    let alive = true;
    const savesThisRound = () => acked.filter((a) => a.kind === 'save' && a.n > round * 10_000).length;
    const saveLoop = async () => {
      while (alive) {
        n += 1;
        const mine = round * 10_000 + n;
        const save = SECTION_SAVES[mine % SECTION_SAVES.length]!;
        const view = await send(base, save.getPath, { cookie });
        if (!isOk(view)) return;
        const { version, data } = JSON.parse(view.body) as { version: number; data: unknown };
        const res = await send(base, save.path, {
          method: save.method,
          cookie,
          ifMatch: version,
          json: save.payload(data, mine),
        });
        if (res.status === 0) return;
        if (isOk(res))
          acked.push({
            kind: 'save',
            version: (JSON.parse(res.body) as { version: number }).version,
            save,
            n: mine,
          });
      }
    };
    const connectorLoop = async () => {
      for (let m = round * 10_000 + 1; alive; m += 1) {
        const res = await send(base, `${CONNECTOR}/configuration`, {
          method: 'PATCH',
          token,
          json: { Info: { VersionConnecteur: `9.${m}` } },
        });
        if (res.status === 0) return;
        if (isOk(res))
          acked.push({
            kind: 'connector',
            version: (JSON.parse(res.body) as { version: number }).version,
            n: m,
          });
      }
    };
    const batchLoop = async () => {
      for (let b = 1; alive; b += 1) {
        const batch: Batch = { prefix: `K${round}B${b}`, round, status: 'pending', cut: false };
        const records = Array.from({ length: BATCH }, (_, i) =>
          importRecord({
            IDInterne: `${batch.prefix}-${i}`,
            Enreg: `<SyncNuxiDev><Table>DEVIS</Table><Enregistrement><Libelle>${LIBELLE}</Libelle></Enregistrement></SyncNuxiDev>`,
          }),
        );
        batches.push(batch);
        const res = await send(base, `${CONNECTOR}/import-records`, {
          method: 'POST',
          token,
          json: { records },
        });
        batch.status = res.status;
        if (res.status === 0) return;
        expect(res.status, res.body).toBe(200);
      }
    };
    const loops = [saveLoop(), saveLoop(), saveLoop(), connectorLoop(), batchLoop()];
    // The kill: saves and a batch acknowledged, the next batch on its way for a while (longer
    // each round).
    const roundBatches = () => batches.filter((b) => b.round === round);
    const deadline = Date.now() + 30_000;
    while (
      Date.now() < deadline &&
      (savesThisRound() < 3 ||
        !roundBatches().some((b) => b.status === 200) ||
        !roundBatches().some((b) => b.status === 'pending'))
    )
      await sleep(10);
    await sleep(60 + round * 150);
    for (const b of batches) if (b.status === 'pending') b.cut = true;
    alive = false;
    await server.kill9();
    await Promise.all(loops);
  }
  expect(await server?.stop()).toBe(0);

  // The data as the last start left it.
  const db = await openDatabase(target);
  try {
    const [current] = await db.query<{ version: number; text: string }>(
      `SELECT c.version, ${exactText('c.text', 'text')} FROM configurations c
       JOIN installations i ON i.id = c.installation_id WHERE i.sync_id = $1`,
      [SYNC_ID],
    );
    const history = await db.query<{ version: number; text: string | null; author: string }>(
      `SELECT v.version, ${exactText('v.text', 'text')}, v.author FROM configuration_versions v
       JOIN installations i ON i.id = v.installation_id WHERE i.sync_id = $1 ORDER BY v.version`,
      [SYNC_ID],
    );
    // The connector's status writes keep no text (docs/config-history.md, Storage): such a
    // version's console values are those of the version before it, which it cannot change.
    const textOf = new Map<number, string>();
    const valuesOf = new Map<number, Map<string, string>>();
    for (const h of history) {
      if (h.text !== null) textOf.set(h.version, storedText(h.text));
      valuesOf.set(
        h.version,
        h.text !== null ? valuesIn(storedText(h.text)) : (valuesOf.get(h.version - 1) ?? new Map()),
      );
    }
    const authorOf = new Map(history.map((h) => [h.version, h.author]));
    // One of its versions, never a mix: the current text is the newest version's (kept whole unless
    // the connector wrote it), every text served after a kill is the text of the version it was
    // served as (its console values, for a connector's version).
    expect(history.map((h) => h.version)).toEqual(Array.from({ length: current!.version }, (_, i) => i + 1));
    if (textOf.has(current!.version)) expect(storedText(current!.text)).toBe(textOf.get(current!.version));
    for (const s of snapshots) {
      if (textOf.has(s.version)) expect(s.text, `served as version ${s.version}`).toBe(textOf.get(s.version));
      else {
        expect(authorOf.get(s.version), `served as version ${s.version}`).toBe('connector');
        expect(valuesIn(s.text), `served as version ${s.version}`).toEqual(valuesOf.get(s.version));
      }
    }

    // Nothing acknowledged is lost.
    // The newest connector version in the database holds the current text's connector values. It is
    // not always the newest one acknowledged: a write may commit and lose its answer to the kill.
    const lastConnector = Math.max(
      0,
      ...history.filter((h) => h.author === 'connector').map((h) => h.version),
    );
    for (const a of acked) {
      expect(authorOf.get(a.version), `${a.kind} ${a.n} acknowledged as version ${a.version}`).toBe(
        a.kind === 'connector' ? 'connector' : 'user',
      );
      if (a.kind === 'connector') {
        const text =
          textOf.get(a.version) ?? (a.version === lastConnector ? storedText(current!.text) : null);
        if (text !== null) expect(text).toContain(`<VersionConnecteur>9.${a.n}</VersionConnecteur>`);
      } else {
        expect(valuesOf.get(a.version)!.get(a.save!.scope), `save ${a.n}`).toBe(a.save!.value(a.n));
      }
    }

    // A batch is all or nothing.
    const counts = new Map(
      (
        await db.query<{ prefix: string; n: number }>(
          `SELECT split_part(r.id_interne, '-', 1) AS prefix, count(*)::int AS n FROM import_records r
           JOIN installations i ON i.id = r.installation_id WHERE i.sync_id = $1 GROUP BY 1`,
          [SYNC_ID],
        )
      ).map((r) => [r.prefix, r.n]),
    );
    for (const b of batches) {
      const stored = counts.get(b.prefix) ?? 0;
      expect([0, BATCH], `${b.prefix} (${b.status})`).toContain(stored);
      if (b.status === 200) expect(stored, `${b.prefix} acknowledged`).toBe(BATCH);
    }
    const cut = batches.filter((b) => b.cut);
    expect(cut.length).toBeGreaterThan(0);
    return {
      database: target.databaseUrl ? 'postgres' : 'pglite',
      rounds,
      savesAcknowledged: acked.filter((a) => a.kind === 'save').length,
      connectorWritesAcknowledged: acked.filter((a) => a.kind === 'connector').length,
      batchesAcknowledged: batches.filter((b) => b.status === 200).length,
      batchesCut: cut.length,
      cutBatchesStored: cut.filter((b) => counts.get(b.prefix) === BATCH).length,
      finalVersion: current!.version,
      startMs: startTimes,
    };
  } finally {
    await db.close();
  }
}

describe('kill -9 of the server in the middle of saves and of a connector batch', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(() => runAll(cleanups.reverse()));

  it.skipIf(inPostgresPass)(
    'embedded database (PGlite files in DATA_DIR): after each restart one whole version, nothing acknowledged lost, batches all or nothing',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'synchro-crash-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const figures = await crashRounds({ dataDir }, { DATA_DIR: dataDir }, 2);
      console.log(`RELIABILITY kill-9 ${JSON.stringify(figures)}`);
    },
    180_000,
  );

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'PostgreSQL: the same after each restart',
    async () => {
      const fresh = await freshDatabase(process.env.TEST_DATABASE_URL!);
      cleanups.push(() => fresh.drop());
      const dataDir = mkdtempSync(join(tmpdir(), 'synchro-crash-pg-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const figures = await crashRounds(
        { databaseUrl: fresh.url, dataDir },
        { DATABASE_URL: fresh.url, SESSION_SECRET: 's'.repeat(48), DATA_DIR: dataDir },
        2,
      );
      console.log(`RELIABILITY kill-9 ${JSON.stringify(figures)}`);
    },
    180_000,
  );
});
