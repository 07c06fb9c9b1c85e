/**
 * The command line: `automate-sim --server URL --sync-id ID --token TOKEN [options]`. Parsing
 * only; the values become the options of `startAutomateSim`.
 */
import { isValidSyncId, SYNC_ID_MESSAGE } from '@synchro/contracts/sync-id';
import type { AutomateSimOptions } from './sim.ts';

/** The token may come from this variable instead of `--token` (kept out of the process list). */
export const TOKEN_ENV = 'AUTOMATE_TOKEN';

export const USAGE = `Simulateur d'automate et de connecteur (une installation)

Usage : npm run automate -- --server URL --sync-id ID --token TOKEN [options]

  --server URL            adresse de la console (https://console.exemple.fr)
  --sync-id ID            ID de synchronisation de l'installation
  --token TOKEN           jeton du connecteur (ou la variable ${TOKEN_ENV})
  --port N                port d'écoute des ordres (0 = un port libre, par défaut)
  --host ADRESSE          adresse d'écoute (0.0.0.0 par défaut)
  --ip ADRESSE            adresse déclarée à la console (par défaut : l'adresse vue par la console)
  --report-interval S     secondes entre deux signalements (300 par défaut)
  --latency MS            délai avant de répondre à un ordre
  --fail-rate P           probabilité 0..1 qu'une synchronisation échoue après avoir été acceptée
  --refuse "MESSAGE"      refuse chaque ordre (RetSync 0) avec ce message
  --hang                  accepte les connexions et ne répond jamais
  --offline               ne se signale pas à la console
  --verbose               journalise aussi chaque appel
  --seed N                graine des données générées (rejouable)
  --artefact-rate P       probabilité 0..1 de chaque artefact dans RetInfo (0.3 par défaut)
  --records N             enregistrements par import des saisies (8 à 30 par défaut)
  --transactions N        transactions par synchronisation (selon les terminaux par défaut)
  --machine-name NOM      nom de machine déclaré (nom de cet ordinateur par défaut)
  --automate-version V    version déclarée du service (6.11.23.9 par défaut)
  --connector-version V   version du connecteur écrite dans Info (6.19.4 par défaut)
  --help                  cette aide
`;

export class OptionsError extends Error {}

type Parsed = { help: true } | { help: false; options: AutomateSimOptions };

const FLAGS = new Set(['hang', 'offline', 'verbose', 'help']);
const VALUES = new Set([
  'server',
  'sync-id',
  'token',
  'port',
  'host',
  'ip',
  'report-interval',
  'latency',
  'fail-rate',
  'refuse',
  'seed',
  'artefact-rate',
  'records',
  'transactions',
  'machine-name',
  'automate-version',
  'connector-version',
]);

function number(name: string, raw: string, min: number, max: number, integer: boolean): number {
  const value = Number(raw);
  if (
    raw.trim() === '' ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  ) {
    const kind = integer ? 'un entier' : 'un nombre';
    throw new OptionsError(
      `Option --${name} : ${kind} entre ${min} et ${max} est attendu (reçu « ${raw} »).`,
    );
  }
  return value;
}

export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Parsed {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) throw new OptionsError(`Argument inattendu « ${arg} ». Voir --help.`);
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (FLAGS.has(name)) {
      if (eq !== -1) throw new OptionsError(`L'option --${name} ne prend pas de valeur.`);
      flags.add(name);
    } else if (VALUES.has(name)) {
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined) throw new OptionsError(`L'option --${name} attend une valeur.`);
      values.set(name, value);
    } else {
      throw new OptionsError(`Option inconnue --${name}. Voir --help.`);
    }
  }
  if (flags.has('help')) return { help: true };

  const server = values.get('server');
  if (server === undefined) throw new OptionsError("L'option --server est obligatoire.");
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new OptionsError(
      `Option --server : « ${server} » n'est pas une adresse (https://console.exemple.fr).`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OptionsError('Option --server : une adresse http:// ou https:// est attendue.');
  }
  const syncId = values.get('sync-id');
  if (syncId === undefined) throw new OptionsError("L'option --sync-id est obligatoire.");
  if (!isValidSyncId(syncId)) throw new OptionsError(`Option --sync-id : ${SYNC_ID_MESSAGE}.`);
  const token = values.get('token') ?? env[TOKEN_ENV];
  if (token === undefined || token.trim() === '') {
    throw new OptionsError(`L'option --token (ou la variable ${TOKEN_ENV}) est obligatoire.`);
  }

  const options: AutomateSimOptions = { server, syncId, token: token.trim() };
  const v = (name: string) => values.get(name);
  if (v('port') !== undefined) options.port = number('port', v('port') as string, 0, 65535, true);
  if (v('host') !== undefined) options.host = v('host');
  if (v('ip') !== undefined) options.ip = v('ip');
  if (v('report-interval') !== undefined) {
    options.reportIntervalSeconds = number(
      'report-interval',
      v('report-interval') as string,
      1,
      86_400,
      false,
    );
  }
  if (v('latency') !== undefined)
    options.latencyMs = number('latency', v('latency') as string, 0, 3_600_000, true);
  if (v('fail-rate') !== undefined)
    options.failRate = number('fail-rate', v('fail-rate') as string, 0, 1, false);
  if (v('refuse') !== undefined) {
    const message = (v('refuse') as string).trim();
    if (message === '') throw new OptionsError('Option --refuse : le message de refus est vide.');
    options.refuse = message;
  }
  if (v('seed') !== undefined) options.seed = number('seed', v('seed') as string, 0, 4294967295, true);
  if (v('artefact-rate') !== undefined)
    options.artefactRate = number('artefact-rate', v('artefact-rate') as string, 0, 1, false);
  if (v('records') !== undefined)
    options.recordsPerSync = number('records', v('records') as string, 0, 1_000_000, true);
  if (v('transactions') !== undefined) {
    options.transactionsPerSync = number('transactions', v('transactions') as string, 0, 1_000_000, true);
  }
  if (v('machine-name') !== undefined) options.machineName = v('machine-name');
  if (v('automate-version') !== undefined) options.automateVersion = v('automate-version');
  if (v('connector-version') !== undefined) options.connectorVersion = v('connector-version');
  options.hang = flags.has('hang');
  options.offline = flags.has('offline');
  options.verbose = flags.has('verbose');
  return { help: false, options };
}
