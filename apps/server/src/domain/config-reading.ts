import { ConfigXmlError, type ConfigDocument } from '@synchro/config-xml';
import type { CachedConfig } from './config-cache.ts';
import { unreadableConfiguration } from './configurations.ts';

/** The parsed configuration of a cache entry, or the 422 that sends the user to the Diagnostic. */
export function documentOr422(entry: CachedConfig): ConfigDocument {
  if (entry.parsed instanceof ConfigXmlError) throw unreadableConfiguration(entry.parsed);
  return entry.parsed;
}

/** Runs a reader of the configuration, turning a fault in a section into the same 422. */
export function readOr422<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof ConfigXmlError) throw unreadableConfiguration(err);
    throw err;
  }
}
