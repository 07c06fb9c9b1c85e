// Zod-free on purpose, like constants.ts: the settings screens import it
// (`@synchro/contracts/secret-destinations`) and the configuration engine runs it on every save.
import { SECRET_PLACEHOLDER } from './constants.ts';

/**
 * Which fields decide where a stored secret goes. A save that sends SECRET_PLACEHOLDER keeps the
 * stored secret; if it also changed one of these fields of the same row, the stored secret would
 * follow to a destination the person saving chose (a server of theirs, a program of theirs)
 * without them ever knowing it. So changing a destination requires typing the secret again.
 *
 * Only the rows a console save can change are here: the other secrets (source `Tokens`, the agenda
 * `Token`, `EspaceClient`) are the connector's and no save touches them or what surrounds them;
 * the agenda type only chooses between two fixed providers; `APIKey_Google` always goes to the
 * same geocoding service.
 */
export interface SecretDestinationRule {
  /** The payload's and the view's list of rows (`sources`, `Liaisons`). */
  rows: string;
  /** French name of row i (1-based), as the screen titles it. */
  rowLabel: (n: number) => string;
  /** The secret field of a row. */
  secret: string;
  /** French name of the secret, lower case, for messages. */
  secretLabel: string;
  /** Fields of the row that decide where the secret goes, with their labels on the screen. */
  destination: readonly { field: string; label: string }[];
}

export const SECRET_DESTINATIONS = {
  sources: {
    rows: 'sources',
    rowLabel: (n: number) => `Connexion ${n}`,
    secret: 'MDP',
    secretLabel: 'mot de passe',
    destination: [
      { field: 'Provider', label: 'Provider' },
      { field: 'Serveur', label: 'Serveur' },
      { field: 'Nom_BDD', label: 'Base de données' },
      { field: 'Utilisateur', label: 'Utilisateur' },
    ],
  },
  externalLinks: {
    rows: 'Liaisons',
    rowLabel: (n: number) => `Logiciel maître ${n}`,
    secret: 'MDP',
    secretLabel: 'mot de passe',
    destination: [
      { field: 'Logiciel', label: 'Logiciel maître' },
      { field: 'Config', label: 'Configuration maître' },
      { field: 'Utilisateur', label: 'Utilisateur logiciel' },
    ],
  },
} as const satisfies Record<string, SecretDestinationRule>;

export type TSecretDestinationKey = keyof typeof SECRET_DESTINATIONS;

type Row = Readonly<Record<string, unknown>>;

/**
 * Labels of the destination fields of a row that differ between what is stored (`stored`, the
 * row of the view: its secret is SECRET_PLACEHOLDER when one is stored) and what is sent, when the
 * sent secret is the placeholder and a secret is stored. Empty otherwise: a typed or cleared
 * secret, or no stored secret, may go anywhere.
 */
export function movedSecretFields(rule: SecretDestinationRule, stored: Row | undefined, sent: Row): string[] {
  if (!stored || stored[rule.secret] !== SECRET_PLACEHOLDER || sent[rule.secret] !== SECRET_PLACEHOLDER)
    return [];
  return rule.destination
    .filter(({ field }) => (stored[field] ?? '') !== (sent[field] ?? ''))
    .map(({ label }) => label);
}

/** « Serveur », « Serveur et Base de données », « Provider, Serveur et Utilisateur ». */
export function frenchList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} et ${items.at(-1) as string}`;
}

const changed = (moved: readonly string[]): string =>
  `${frenchList(moved)} ${moved.length > 1 ? 'ont changé' : 'a changé'}`;

/** Why a stored secret does not follow a change of destination (ends the hint and the 400). */
export const MOVED_SECRET_REASON =
  "Un mot de passe enregistré n'est jamais envoyé vers une autre destination.";

/** What the screen says beside a secret field whose destination changed (empty: nothing). */
export function movedSecretHint(rule: SecretDestinationRule, moved: readonly string[]): string {
  if (moved.length === 0) return '';
  return `${changed(moved)}\u00a0: saisissez à nouveau le ${rule.secretLabel}. ${MOVED_SECRET_REASON}`;
}

/**
 * Every row of a save that keeps its stored secret while changing where it goes, as payload issues
 * (`sources.0.MDP` and « Connexion 1 : Serveur a changé, saisissez à nouveau le mot de passe. »).
 * `stored` are the rows of the newest view, `sent` those of the payload (row i is row i).
 */
export function movedSecretIssues(
  rule: SecretDestinationRule,
  stored: readonly Row[],
  sent: readonly Row[],
): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  sent.forEach((row, i) => {
    const moved = movedSecretFields(rule, stored[i], row);
    if (moved.length > 0)
      issues.push({
        path: `${rule.rows}.${i}.${rule.secret}`,
        message: `${rule.rowLabel(i + 1)}\u00a0: ${changed(moved)}, saisissez à nouveau le ${rule.secretLabel}.`,
      });
  });
  return issues;
}
