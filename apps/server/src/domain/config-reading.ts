import type { TPlanningCounts } from '@synchro/contracts';
import { ConfigXmlError, countPlannings, redactConfig, type ConfigDocument } from '@synchro/config-xml';
import { AppError } from '../http/errors.ts';
import { derive, type CachedConfig } from './config-cache.ts';

function unreadable(err: ConfigXmlError): AppError {
  return new AppError(
    422,
    `La configuration enregistrée ne peut pas être lue : ${err.message} Utilisez le Diagnostic XML pour la réparer.`,
    'CONFIG_UNREADABLE',
  );
}

/** The parsed configuration, or an AppError (422) saying it cannot be read. */
export function documentOr422(entry: CachedConfig): ConfigDocument {
  if (entry.parsed instanceof ConfigXmlError) throw unreadable(entry.parsed);
  return entry.parsed;
}

/** Runs a reader of the configuration, turning a fault in a section into the same 422. */
export function readOr422<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof ConfigXmlError) throw unreadable(err);
    throw err;
  }
}

export interface UserConfigView {
  redacted: string;
  planningCounts: TPlanningCounts;
}

/**
 * What /api/user says of the configuration. An unreadable document cannot be redacted safely:
 * the user then gets an empty ConfigConnecteur (the diagnostic screen reads it server side).
 */
export function userConfigView(entry: CachedConfig): UserConfigView {
  return derive(entry, 'user-view', () => {
    const doc = entry.parsed;
    const empty: UserConfigView = { redacted: '', planningCounts: { C: 0, R: 0, I: 0 } };
    if (doc instanceof ConfigXmlError) return empty;
    try {
      return { redacted: redactConfig(doc), planningCounts: countPlannings(doc) };
    } catch (err) {
      if (err instanceof ConfigXmlError) return empty;
      throw err;
    }
  });
}
