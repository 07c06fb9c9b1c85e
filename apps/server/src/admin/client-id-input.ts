import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Shortest client id the admin command accepts (a generated one has 24 characters). */
export const MIN_CLIENT_ID_LENGTH = 16;
/** Longest one: the sign-in form accepts 256 characters. */
const MAX_CLIENT_ID_LENGTH = 256;
/** Fewest different characters a hand-chosen client id may have. */
export const MIN_DISTINCT_CHARACTERS = 6;

/** The shortest unit `text` is a repetition of (the whole text when it repeats nothing); linear. */
function smallestPeriod(text: readonly string[]): number {
  // Prefix function (Knuth-Morris-Pratt): border[i] is the longest proper border of text[0..i].
  const border = new Array<number>(text.length).fill(0);
  for (let i = 1; i < text.length; i++) {
    let k = border[i - 1] ?? 0;
    while (k > 0 && text[i] !== text[k]) k = border[k - 1] ?? 0;
    border[i] = text[i] === text[k] ? k + 1 : k;
  }
  return text.length - (border[text.length - 1] ?? 0);
}

/**
 * Why a hand-chosen client id is obviously weak, or null: too few different characters, one
 * pattern repeated (`Passw0rdPassw0rd`, `azerty-azerty-aze`), or a run of consecutive characters
 * (`abcdefghijklmnop`, `9876543210…`). Such ids fall to the first guesses of any list, and the
 * sign-in lets a sync id be tried up to 35 times a quarter of an hour (docs/security.md).
 */
export function weakClientIdReason(clientId: string): string | null {
  const chars = [...clientId];
  const distinct = new Set(chars).size;
  if (distinct < MIN_DISTINCT_CHARACTERS)
    return `il ne compte que ${distinct} caractère${distinct > 1 ? 's différents' : ' différent'} (au moins ${MIN_DISTINCT_CHARACTERS})`;
  const period = smallestPeriod(chars);
  if (period * 2 <= chars.length)
    return `c'est le motif «\u00a0${chars.slice(0, period).join('')}\u00a0» répété`;
  const codes = chars.map((c) => c.codePointAt(0) ?? 0);
  const step = (codes[1] ?? 0) - (codes[0] ?? 0);
  if (Math.abs(step) === 1 && codes.every((c, i) => i === 0 || c - (codes[i - 1] ?? 0) === step))
    return "c'est une suite de caractères consécutifs";
  return null;
}

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
 * no control character, not obviously weak (weakClientIdReason).
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
  const weak = weakClientIdReason(clientId);
  if (weak)
    throw new ClientIdError(
      `L'ID Client est trop facile à deviner\u00a0: ${weak}. Sans --client-id ni --client-id-file, ` +
        'un ID Client sûr est généré et affiché une fois.',
    );
  return { clientId, generated: false };
}
