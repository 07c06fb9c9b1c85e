import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Shortest client id the admin command accepts (a generated one has 24 characters). */
export const MIN_CLIENT_ID_LENGTH = 16;
/** Longest one: the sign-in form accepts 256 characters. */
const MAX_CLIENT_ID_LENGTH = 256;

export const ARGV_CLIENT_ID_WARNING =
  "Attention : un ID Client écrit sur la ligne de commande reste dans l'historique du shell et " +
  'reste visible des autres utilisateurs de la machine pendant la commande ; préférez ' +
  '--client-id - (entrée standard), --client-id-file FICHIER, ou aucun des deux (un ID Client ' +
  'est alors généré et affiché une fois).';

/** A wrong or unreadable client id: the command's usage error (exit code 2). */
export class ClientIdError extends Error {}

export interface ClientIdSources {
  /** `--client-id VALUE`, or `-` for the standard input. */
  inline: string | undefined;
  /** `--client-id-file PATH` (relative to the directory where the command was typed). */
  file: string | undefined;
  /** The standard input's text (read only for `--client-id -`). */
  readStdin: () => Promise<string>;
  warn: (line: string) => void;
}

/** The first line of a text, without its line end. */
const firstLine = (text: string): string => /^[^\r\n]*/.exec(text)?.[0] ?? '';

function readClientIdFile(path: string): string {
  try {
    // npm runs scripts from the project root; INIT_CWD is where the command was typed.
    return readFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), path), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ClientIdError(
      `Impossible de lire le fichier de l'ID Client ${path}` +
        (code === 'ENOENT' ? ' : fichier introuvable.' : ` (${code}).`),
    );
  }
}

/**
 * The client id of `create-installation` / `set-client-id`: from a file, the standard input or
 * (with a warning) the command line; generated (24 random characters) when none is given, and then
 * `generated` is true so that the command prints it, once. At least 16 characters, at most 256,
 * no control character.
 */
export async function clientIdFrom(
  sources: ClientIdSources,
): Promise<{ clientId: string; generated: boolean }> {
  const { inline, file } = sources;
  if (inline !== undefined && file !== undefined)
    throw new ClientIdError('Indiquez --client-id ou --client-id-file, pas les deux.');
  let clientId: string;
  if (file !== undefined) clientId = firstLine(readClientIdFile(file));
  else if (inline === '-') clientId = firstLine(await sources.readStdin());
  else if (inline !== undefined) {
    sources.warn(ARGV_CLIENT_ID_WARNING);
    clientId = inline;
  } else return { clientId: randomBytes(18).toString('base64url'), generated: true };
  if (clientId.length < MIN_CLIENT_ID_LENGTH)
    throw new ClientIdError(
      `L'ID Client doit compter au moins ${MIN_CLIENT_ID_LENGTH} caractères (${clientId.length} reçu(s)). ` +
        'Sans --client-id ni --client-id-file, un ID Client sûr est généré et affiché une fois.',
    );
  if (clientId.length > MAX_CLIENT_ID_LENGTH)
    throw new ClientIdError(`L'ID Client ne doit pas dépasser ${MAX_CLIENT_ID_LENGTH} caractères.`);
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(clientId))
    throw new ClientIdError("L'ID Client ne doit contenir aucun caractère de contrôle (tabulation…).");
  return { clientId, generated: false };
}
