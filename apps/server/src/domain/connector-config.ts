import type { TPlanningCounts } from '@synchro/contracts';
import {
  ConfigXmlError,
  countPlannings,
  parseConfig,
  redactConfig,
  type ConfigDocument,
} from '@synchro/config-xml';
import { AppError } from '../http/errors.ts';

/** The stored configuration parsed, or an AppError (422) saying it cannot be read. */
export function parseStoredConfig(text: string): ConfigDocument {
  try {
    return parseConfig(text);
  } catch (err) {
    if (err instanceof ConfigXmlError) throw unreadable(err);
    throw err;
  }
}

function unreadable(err: ConfigXmlError): AppError {
  return new AppError(
    422,
    `La configuration enregistrée ne peut pas être lue : ${err.message} Utilisez le Diagnostic XML pour la réparer.`,
    'CONFIG_UNREADABLE',
  );
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

/**
 * What /api/user says of the configuration. An unreadable document cannot be redacted safely:
 * the user then gets an empty ConfigConnecteur (the diagnostic screen reads it server side).
 */
export function userConfigView(text: string): { redacted: string; planningCounts: TPlanningCounts } {
  try {
    const doc = parseConfig(text);
    return { redacted: redactConfig(doc), planningCounts: countPlannings(doc) };
  } catch (err) {
    if (err instanceof ConfigXmlError) return { redacted: '', planningCounts: { C: 0, R: 0, I: 0 } };
    throw err;
  }
}
