import { DEFAULT_FAIR_SHARE } from '../config/env.ts';
import { ConfigXmlError, documentFromLayout, parseConfig, type ConfigDocument } from '@synchro/config-xml';
import { OFFLOAD_MIN_BYTES, type Offload } from '../offload/pool.ts';
import { errorOfLayout, parseConfigTask } from './config-parse-task.ts';
import type { Queryable } from '../db/types.ts';
import { getConfiguration, getConfigurationVersion } from './configurations.ts';

export interface CachedConfig {
  version: number;
  /** The parsed document, or why the stored text cannot be parsed. */
  parsed: ConfigDocument | ConfigXmlError;
  /** Values derived from this version (the user view...), computed once. */
  derived: Map<string, unknown>;
}

/**
 * About the memory an entry holds: its text (two bytes a character at worst) and its element
 * index (six 32-bit arrays sized to its capacity). Values derived later are not counted.
 */
export function entryBytes(entry: CachedConfig): number {
  if (entry.parsed instanceof ConfigXmlError) return 0;
  return entry.parsed.text.length * 2 + entry.parsed.layout.index.start.length * 6 * 4;
}

/**
 * Parsed configurations by installation and version. Safe with several server processes: the
 * version is read from the database on every use (by `get`, or by the caller of `at` in the same
 * request), so a newer version is never hidden; only the parse of an unchanged text is saved.
 * Bounded in entries and in bytes (entryBytes): least recently used entries go first; one bigger
 * than the whole budget is used by its request and not kept. Requests that miss the same version
 * at once share one read and one parse (a 50 MB text parsed once, not once per request).
 */
export class ConfigCache {
  private readonly entries = new Map<string, CachedConfig>();
  private readonly loading = new Map<string, { version: number; entry: Promise<CachedConfig> }>();
  private bytes = 0;

  /**
   * `offload`: a big text (OFFLOAD_MIN_BYTES characters or more) is scanned in a worker thread,
   * and its element index moved back (config-parse-task.ts): never on the request thread.
   */
  constructor(
    private readonly maxEntries = 200,
    private readonly offload: Offload | null = null,
    private readonly maxBytes = DEFAULT_FAIR_SHARE.configCacheBytes,
  ) {}

  /** Entries and bytes held now. */
  held(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** The configuration of an installation, its version read from the database now. */
  async get(db: Queryable, installationId: string): Promise<CachedConfig> {
    return this.at(db, installationId, await getConfigurationVersion(db, installationId));
  }

  /**
   * The configuration of an installation whose stored version was just read from the database
   * by the caller (the session query of a protected request reads it in the same round trip).
   * A different version in the cache is never returned: the text is read again.
   */
  async at(db: Queryable, installationId: string, version: number): Promise<CachedConfig> {
    const hit = this.entries.get(installationId);
    if (hit && hit.version === version) {
      this.entries.delete(installationId);
      this.entries.set(installationId, hit);
      return hit;
    }
    const pending = this.loading.get(installationId);
    if (pending && pending.version === version) return pending.entry;
    const entry = this.load(db, installationId).finally(() => {
      if (this.loading.get(installationId)?.entry === entry) this.loading.delete(installationId);
    });
    this.loading.set(installationId, { version, entry });
    return entry;
  }

  private async load(db: Queryable, installationId: string): Promise<CachedConfig> {
    const stored = await getConfiguration(db, installationId);
    const entry: CachedConfig = {
      version: stored.version,
      parsed:
        this.offload && typeof stored.text === 'string' && stored.text.length >= OFFLOAD_MIN_BYTES
          ? await parseElsewhere(this.offload.for(installationId), stored.text)
          : parseOrError(stored.text),
      derived: new Map(),
    };
    const current = this.entries.get(installationId);
    // A slower load of an older version does not replace a newer one.
    if (current && current.version > entry.version) return entry;
    this.remove(installationId);
    const size = entryBytes(entry);
    if (size > this.maxBytes) return entry;
    this.entries.set(installationId, entry);
    this.bytes += size;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.remove(oldest);
    }
    return entry;
  }

  private remove(installationId: string): void {
    const entry = this.entries.get(installationId);
    if (!entry) return;
    this.entries.delete(installationId);
    this.bytes -= entryBytes(entry);
  }
}

async function parseElsewhere(offload: Offload, text: string): Promise<ConfigDocument | ConfigXmlError> {
  const out = await offload.run(parseConfigTask, { text });
  return 'layout' in out ? documentFromLayout(text, out.layout) : errorOfLayout(out.error);
}

function parseOrError(text: string): ConfigDocument | ConfigXmlError {
  try {
    return parseConfig(text);
  } catch (err) {
    if (err instanceof ConfigXmlError) return err;
    throw err;
  }
}

/** A value derived from a cached configuration, computed on first use. */
export function derive<T>(entry: CachedConfig, key: string, compute: () => T): T {
  if (entry.derived.has(key)) return entry.derived.get(key) as T;
  const value = compute();
  entry.derived.set(key, value);
  return value;
}
