import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inPostgresPass } from '../../test/helpers/passes.ts';
import { openPostgres } from './postgres.ts';
import type { Db } from './types.ts';

/**
 * PostgreSQL's connections pipeline the queries of a transaction (db/postgres.ts): seen on the
 * wire, through a proxy of this test that notes which way each chunk of bytes went, in order.
 */

interface Chunk {
  up: boolean;
  text: string;
}

describe.skipIf(!inPostgresPass)('queries pipelined on PostgreSQL', () => {
  const chunks: Chunk[] = [];
  let proxy: net.Server;
  let db: Db;
  const table = `pipeline_probe_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    const target = new URL(process.env.TEST_DATABASE_URL ?? '');
    proxy = net.createServer((client) => {
      const server = net.connect(Number(target.port || 5432), target.hostname);
      client.on(
        'data',
        (data) => (chunks.push({ up: true, text: data.toString('latin1') }), server.write(data)),
      );
      server.on(
        'data',
        (data) => (chunks.push({ up: false, text: data.toString('latin1') }), client.write(data)),
      );
      client.on('close', () => server.destroy());
      server.on('close', () => client.destroy());
      client.on('error', () => server.destroy());
      server.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.address() as net.AddressInfo;
    const url = new URL(target);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    db = openPostgres({ connectionString: url.toString(), max: 2 });
    await db.exec(`CREATE TABLE ${table} (n int NOT NULL)`);
  });

  afterAll(async () => {
    await db.exec(`DROP TABLE IF EXISTS ${table}`);
    await db.close();
    await new Promise((resolve) => proxy.close(resolve));
  });

  const firstChunk = (up: boolean, marker: string) =>
    chunks.findIndex((c) => c.up === up && c.text.includes(marker));

  it('a query given before the previous one answered reaches PostgreSQL before that answer', async () => {
    const [slow, next] = await db.transaction((tx) =>
      Promise.all([
        tx.query<{ a: string }>(`SELECT 'answer_of_slow' AS a, pg_sleep(0.2)::text AS s`),
        tx.query<{ b: string }>(`SELECT 'sent_while_slow_runs' AS b`),
      ]),
    );
    expect(slow[0]?.a).toBe('answer_of_slow');
    expect(next[0]?.b).toBe('sent_while_slow_runs');
    const sent = firstChunk(true, 'sent_while_slow_runs');
    const answered = firstChunk(false, 'answer_of_slow');
    expect(sent).toBeGreaterThanOrEqual(0);
    expect(answered).toBeGreaterThan(sent);
  });

  it('one that fails among pipelined queries: the one before keeps its answer, those after fail, nothing stays', async () => {
    const settled: PromiseSettledResult<unknown>[] = [];
    await expect(
      db.transaction(async (tx) => {
        settled.push(
          ...(await Promise.allSettled([
            tx.query(`INSERT INTO ${table} (n) VALUES (1) RETURNING n`),
            tx.query('SELECT 1/0'),
            tx.query(`INSERT INTO ${table} (n) VALUES (3) RETURNING n`),
          ])),
        );
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(String((settled[1] as PromiseRejectedResult).reason)).toMatch(/division by zero/);
    expect((settled[2] as PromiseRejectedResult).reason).toMatchObject({ code: '25P02' });
    // Rolled back, and the connections still answer, one query after another.
    expect(await db.query(`SELECT count(*)::int AS n FROM ${table}`)).toEqual([{ n: 0 }]);
    await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${table} (n) VALUES (4)`);
      await tx.query(`INSERT INTO ${table} (n) VALUES (5)`);
    });
    expect(await db.query(`SELECT n FROM ${table} ORDER BY n`)).toEqual([{ n: 4 }, { n: 5 }]);
  });
});
