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
 * Parsed configurations by installation and version. Safe with several server processes: the
 * version is read from the database on every use (by `get`, or by the caller of `at` in the same
 * request), so a newer version is never hidden; only the
 * parse of an unchanged text is saved. Least recently used entries go first.
 */
export class ConfigCache {
  private readonly entries = new Map<string, CachedConfig>();

  /**
   * `offload`: a big text (OFFLOAD_MIN_BYTES characters or more) is scanned in a worker thread,
   * and its element index moved back (config-parse-task.ts): never on the request thread.
   */
  constructor(
    private readonly maxEntries = 200,
    private readonly offload: Offload | null = null,
  ) {}

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
    const stored = await getConfiguration(db, installationId);
    const entry: CachedConfig = {
      version: stored.version,
      parsed:
        this.offload && typeof stored.text === 'string' && stored.text.length >= OFFLOAD_MIN_BYTES
          ? await parseElsewhere(this.offload, stored.text)
          : parseOrError(stored.text),
      derived: new Map(),
    };
    this.entries.delete(installationId);
    this.entries.set(installationId, entry);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return entry;
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
