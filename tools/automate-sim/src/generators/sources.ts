/**
 * The connection status of each source that has a provider, as the connector writes
 * `Source/Status` and `StatusLibelle` (` Ok : SQL`, as the real document has it: the console shows
 * « Cnx 1 » before it; Status 0 with the reason when it failed).
 */
import { encodeConnectorText } from '@synchro/config-xml';
import type { TSourceStatusPatch } from '../api-types.ts';
import type { Source } from '../installation.ts';
import type { Random } from '../random.ts';

const KIND_OF_PROVIDER: Record<string, string> = {
  SQLOLEDB: 'SQL',
  MSDASQL: 'ODBC',
  CLOUD: 'CLOUD',
  'Microsoft.Jet.OLEDB.3.51': 'Access',
  'Microsoft.Jet.OLEDB.4.0': 'Access',
  WinDevClientServeurHF: 'HFSQL',
  WinDevHF7: 'HFSQL',
};

const FAILURES = [
  'connexion impossible au serveur {server} (délai dépassé)',
  "échec de l'authentification de l'utilisateur sur {server}",
  'la base {server} est en cours de maintenance',
];

export interface SourceStatusOptions {
  /** The sync failed: the first source could not be reached. */
  failed?: boolean;
  /** Chance that one source fails in a sync that did not (default 0.1). */
  failureRate?: number;
}

export function sourceStatuses(
  rng: Random,
  sources: readonly Source[],
  options: SourceStatusOptions = {},
): TSourceStatusPatch[] {
  let failing = -1;
  if (sources.length > 0) {
    if (options.failed) failing = 0;
    else if (rng.chance(options.failureRate ?? 0.1)) failing = rng.int(0, sources.length - 1);
  }
  return sources.map((s, i) => {
    const kind = KIND_OF_PROVIDER[s.provider] ?? s.provider;
    if (i !== failing) return { index: s.index, Status: '1', StatusLibelle: ` Ok : ${kind}` };
    const server = s.server.trim() !== '' ? s.server.trim() : kind;
    return {
      index: s.index,
      Status: '0',
      StatusLibelle: encodeConnectorText(` Erreur : ${rng.pick(FAILURES).replace('{server}', server)}`),
    };
  });
}
