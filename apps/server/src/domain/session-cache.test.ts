import type { FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addInstallation, signIn, TEST_SESSION_SECRET, testApp } from '../../test/helpers/app.ts';
import { openTestDb } from '../../test/helpers/db.ts';
import { inPostgresPass } from '../../test/helpers/passes.ts';
import { migrate } from '../db/migrate.ts';
import { openPgliteInThread } from '../db/pglite-thread.ts';
import { ANY_CHANGE, type Db } from '../db/types.ts';
import { hashSessionToken } from '../security/secrets.ts';
import { setClientId, setExpiry, suspendInstallation } from './installation-admin.ts';
import { EXPIRED_MESSAGE } from './installations.ts';
import { SessionCache, sessionCacheOf } from './session-cache.ts';
import type { LiveSession } from './sessions.ts';

describe('SessionCache', () => {
  it('keeps a read only if no change was heard since it began', () => {
    const cache = new SessionCache<string>();
    const readAt = cache.generation;
    cache.changed('another installation');
    cache.store('token', 'inst', 'stale?', readAt);
    expect(cache.get('token')).toBeUndefined();
    cache.store('token', 'inst', 'fresh', cache.generation);
    expect(cache.get('token')).toBe('fresh');
  });

  it('drops every session of the installation that changed, and only those', () => {
    const cache = new SessionCache<string>();
    cache.store('a1', 'A', 'a1', cache.generation);
    cache.store('a2', 'A', 'a2', cache.generation);
    cache.store('b1', 'B', 'b1', cache.generation);
    cache.changed('A');
    expect([cache.get('a1'), cache.get('a2'), cache.get('b1')]).toEqual([undefined, undefined, 'b1']);
    expect(cache.size).toBe(1);
  });

  it('forgets everything on ANY_CHANGE, and serves nothing while its database is busy', () => {
    let busy = false;
    const cache = new SessionCache<string>(() => busy);
    cache.store('a1', 'A', 'a1', cache.generation);
    cache.store('b1', 'B', 'b1', cache.generation);
    busy = true;
    expect(cache.get('a1')).toBeUndefined();
    busy = false;
    expect(cache.get('a1')).toBe('a1');
    cache.changed(ANY_CHANGE);
    expect([cache.get('a1'), cache.get('b1'), cache.size]).toEqual([undefined, undefined, 0]);
  });

  it('holds at most 10 000 entries, the oldest stored leaving first', () => {
    const cache = new SessionCache<number>();
    for (let i = 0; i < 10_050; i++) cache.store(`t${i}`, `i${i % 7}`, i, cache.generation);
    expect(cache.size).toBe(10_000);
    expect(cache.get('t49')).toBeUndefined();
    expect(cache.get('t50')).toBe(50);
    // The index by installation follows the evictions: a change drops what is left, no more.
    cache.changed('i0');
    expect(cache.get('t10045')).toBeUndefined();
    expect(cache.get('t10044')).toBe(10044);
  });
});

/** The server's own embedded database: PGlite in its thread (db-worker.ts), in a temporary folder. */
async function openThreadDb(): Promise<Db> {
  const dir = mkdtempSync(join(tmpdir(), 'session-cache-'));
  const db = await openPgliteInThread(join(dir, 'pglite'));
  await migrate(db);
  return {
    ...db,
    async close() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const databases: [string, () => Promise<Db>][] = inPostgresPass
  ? [['PostgreSQL: no cache', () => openTestDb()]]
  : [
      ['embedded, in the test’s thread', () => openTestDb()],
      ['embedded, in its own thread as in the server', openThreadDb],
    ];

/**
 * The session check through the app with the cache on (embedded database) or off (PostgreSQL):
 * every change that ends or alters a session applies to the very next request either way.
 */
describe.each(databases)(
  'the session check and the changes that end or alter a session (%s)',
  (_label, open) => {
    let db: Db;
    let app: FastifyInstance;
    // The real time (setExpiry compares with it), in whole seconds.
    let now = new Date(Math.floor(Date.now() / 1000) * 1000);
    let seq = 0;

    beforeAll(async () => {
      db = await open();
      app = await testApp(db, { now: () => now });
    });
    afterAll(async () => {
      await app.close();
      await db.close();
    });

    async function signedIn() {
      const syncId = `CACHE${++seq}`;
      const { installation } = await addInstallation(db, { syncId });
      const cookie = await signIn(app, syncId);
      return { syncId, installation, cookie };
    }
    const read = (cookie: string, url = '/api/config/sources') => app.inject({ url, headers: { cookie } });
    const tokenHash = (cookie: string) =>
      hashSessionToken(cookie.slice('synchro_session='.length), TEST_SESSION_SECRET);

    it('is kept in memory on the embedded database only', async () => {
      const { cookie } = await signedIn();
      expect((await read(cookie)).statusCode).toBe(200);
      const cache = sessionCacheOf<LiveSession>(db);
      if (inPostgresPass) expect(cache).toBeUndefined();
      else expect(cache?.get(tokenHash(cookie))?.installation.syncId).toBe(`CACHE${seq}`);
    });

    it.skipIf(inPostgresPass)(
      'serves from memory: a change made without its trigger goes unseen',
      async () => {
        // What the triggers of migration 020 are for: with them disabled for one statement, the
        // session deleted in the database is still served from memory.
        const { cookie } = await signedIn();
        expect((await read(cookie)).statusCode).toBe(200);
        await db.transaction(async (tx) => {
          await tx.query('SET LOCAL session_replication_role = replica');
          await tx.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash(cookie)]);
        });
        expect((await read(cookie)).statusCode).toBe(200);
      },
    );

    it('a session deleted in the database is refused at the next request', async () => {
      const { cookie } = await signedIn();
      expect((await read(cookie)).statusCode).toBe(200);
      await db.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash(cookie)]);
      expect((await read(cookie)).statusCode).toBe(401);
    });

    it('a logout ends the session at once', async () => {
      const { cookie } = await signedIn();
      expect((await read(cookie)).statusCode).toBe(200);
      expect((await app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } })).statusCode).toBe(
        200,
      );
      expect((await read(cookie)).statusCode).toBe(401);
    });

    it('a suspension, a new client id, a licence ended by the clock: refused at the next request', async () => {
      const suspended = await signedIn();
      expect((await read(suspended.cookie)).statusCode).toBe(200);
      await suspendInstallation(db, suspended.syncId);
      expect((await read(suspended.cookie)).statusCode).toBe(401);

      const newClient = await signedIn();
      expect((await read(newClient.cookie)).statusCode).toBe(200);
      await setClientId(db, newClient.syncId, 'un-autre-id-client');
      expect((await read(newClient.cookie)).statusCode).toBe(401);

      // An expiry in the future keeps the session; the clock passing it ends it, cache or not.
      const expiring = await signedIn();
      await setExpiry(db, expiring.syncId, new Date(now.getTime() + 30_000));
      expect((await read(expiring.cookie)).statusCode).toBe(200);
      expect((await read(expiring.cookie)).statusCode).toBe(200);
      const before = now;
      now = new Date(now.getTime() + 45_000);
      try {
        const refused = await read(expiring.cookie);
        expect(refused.statusCode).toBe(401);
        expect(refused.body).toContain(JSON.stringify(EXPIRED_MESSAGE).slice(1, -1));
      } finally {
        now = before;
      }
    });

    it('a configuration written anywhere is read at its new version by the next request', async () => {
      const { installation, cookie } = await signedIn();
      const first = (await read(cookie)).json<{ version: number }>().version;
      await db.query('UPDATE configurations SET version = version + 1 WHERE installation_id = $1', [
        installation.id,
      ]);
      expect((await read(cookie)).json<{ version: number }>().version).toBe(first + 1);
    });

    // The three cases below came from a review of the cache (2026-11-27): each failed with it.
    it.skipIf(inPostgresPass)(
      'a request arriving while a change’s transaction is open waits for it, as without the cache',
      async () => {
        // PGlite runs one statement at a time: the session's statement would wait for the
        // transaction's end. (On PostgreSQL it reads the row as committed before: its own rule.)
        const { installation, cookie } = await signedIn();
        expect((await read(cookie)).statusCode).toBe(200);
        let during: Promise<number> | undefined;
        await db.transaction(async (tx) => {
          await tx.query('UPDATE installations SET suspended = true WHERE id = $1', [installation.id]);
          await tx.query('DELETE FROM sessions WHERE installation_id = $1', [installation.id]);
          during = read(cookie).then((r) => r.statusCode);
          await new Promise((r) => setTimeout(r, 30));
        });
        expect(await during).toBe(401);
      },
    );

    it('a configuration moved to another installation is seen by that one’s sessions', async () => {
      const a = await signedIn();
      const b = await signedIn();
      await db.query('DELETE FROM configurations WHERE installation_id = $1', [b.installation.id]);
      expect((await read(b.cookie)).json<{ version: number }>().version).toBe(0);
      await db.query('UPDATE configurations SET installation_id = $2 WHERE installation_id = $1', [
        a.installation.id,
        b.installation.id,
      ]);
      expect((await read(b.cookie)).json<{ version: number }>().version).toBe(1);
    });

    it('a change committed by an exec that then fails is seen all the same', async () => {
      // PGlite drops the notifications that follow an error in the same answer.
      const { cookie } = await signedIn();
      expect((await read(cookie)).statusCode).toBe(200);
      const sql = `BEGIN; DELETE FROM sessions WHERE token_hash = '${tokenHash(cookie)}'; COMMIT; SELECT 1/0;`;
      await expect(db.exec(sql)).rejects.toThrow();
      expect((await read(cookie)).statusCode).toBe(401);
    });

    it('the minute’s touch goes to the database; idle and absolute ends hold', async () => {
      const { cookie } = await signedIn();
      const hash = tokenHash(cookie);
      const lastSeen = async () =>
        (
          await db.query<{ at: Date }>('SELECT last_seen_at AS at FROM sessions WHERE token_hash = $1', [
            hash,
          ])
        )[0]?.at;
      const signedAt = now;
      try {
        expect((await read(cookie)).statusCode).toBe(200);
        now = new Date(signedAt.getTime() + 59_000);
        expect((await read(cookie)).statusCode).toBe(200);
        expect(await lastSeen()).toEqual(signedAt);
        now = new Date(signedAt.getTime() + 61_000);
        expect((await read(cookie)).statusCode).toBe(200);
        expect(await lastSeen()).toEqual(now);
        // Twelve hours without a request: the session has ended, whatever memory holds.
        now = new Date(now.getTime() + 12 * 3_600_000);
        expect((await read(cookie)).statusCode).toBe(401);
      } finally {
        now = signedAt;
      }
    });
  },
);
