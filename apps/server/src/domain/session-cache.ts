import { ANY_CHANGE, type Db, type Queryable } from '../db/types.ts';

/**
 * The live sessions of the embedded database kept in memory (docs/server.md « Cache des
 * sessions »): the session check of every signed-in request is otherwise a statement in the
 * database's thread, three quarters of a small answer's cost there (bench/README.md, Compression).
 *
 * Exact, not a window: the embedded database has one process (its folder's lock), and every change
 * that can end or alter a session (the session itself, its installation, the configuration's
 * version) raises a NOTIFY from a trigger (migration 020) that this process hears before the
 * writing statement returns. So an entry is dropped before the answer of the logout, suspension or
 * save that made it stale is sent. A read that races such a change is not kept: each read notes
 * the generation it started at, and is stored only if no change was heard since. While a
 * transaction is open on the database nothing is served from memory: without the cache the
 * session's statement would wait for that transaction's end, and so it does. (A request that
 * arrives while a single statement is running is answered from memory, before that statement's
 * own answer: the order of two concurrent requests, as on PostgreSQL.)
 *
 * Off on PostgreSQL: another process's change would reach this one only after its commit,
 * asynchronously (docs/decisions.md, 2026-11-27, « Not done: a session cache »).
 */

export const SESSION_CACHE_CHANNEL = 'synchro_session_cache';

/** Entries at most (a few hundred bytes each); the oldest stored goes first. */
const MAX_ENTRIES = 10_000;

export class SessionCache<T> {
  private readonly entries = new Map<string, { installationId: string; value: T }>();
  private readonly byInstallation = new Map<string, Set<string>>();
  private changes = 0;

  /** `busy`: while it says so, nothing is served from memory (a transaction is open). */
  constructor(private readonly busy: () => boolean = () => false) {}

  /** Changes heard so far: a read notes it before its statement, and gives it to `store`. */
  get generation(): number {
    return this.changes;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): T | undefined {
    return this.busy() ? undefined : this.entries.get(key)?.value;
  }

  /** Keeps a read's result, unless a change was heard since the read began. */
  store(key: string, installationId: string, value: T, readAt: number): void {
    if (readAt !== this.changes) return;
    this.drop(key);
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.drop(oldest.value);
    }
    this.entries.set(key, { installationId, value });
    const keys = this.byInstallation.get(installationId);
    if (keys) keys.add(key);
    else this.byInstallation.set(installationId, new Set([key]));
  }

  drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    const keys = this.byInstallation.get(entry.installationId);
    keys?.delete(key);
    if (keys?.size === 0) this.byInstallation.delete(entry.installationId);
  }

  /** Something of this installation changed (ANY_CHANGE: of any): its sessions are read again. */
  changed(installationId: string): void {
    this.changes += 1;
    if (installationId === ANY_CHANGE) {
      this.entries.clear();
      this.byInstallation.clear();
      return;
    }
    const keys = this.byInstallation.get(installationId);
    if (!keys) return;
    this.byInstallation.delete(installationId);
    for (const key of keys) this.entries.delete(key);
  }
}

const caches = new WeakMap<object, SessionCache<unknown>>();

/**
 * Turns the cache on for a database that can tell its changes (the embedded one); nothing on
 * PostgreSQL. Once per database, before its first request.
 */
export async function enableSessionCache(db: Db): Promise<void> {
  if (!db.listen || caches.has(db)) return;
  const cache = new SessionCache<unknown>(() => db.inTransaction?.() ?? false);
  await db.listen(SESSION_CACHE_CHANNEL, (installationId) => cache.changed(installationId));
  caches.set(db, cache);
}

/** The cache of `db` (the database itself, not one of its transactions), if it has one. */
export function sessionCacheOf<T>(db: Queryable): SessionCache<T> | undefined {
  return caches.get(db) as SessionCache<T> | undefined;
}
