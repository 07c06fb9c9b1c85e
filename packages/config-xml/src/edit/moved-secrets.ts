import {
  MOVED_SECRET_REASON,
  SECRET_DESTINATIONS,
  movedSecretIssues,
  type TSecretDestinationKey,
} from '@synchro/contracts/secret-destinations';
import { ConfigXmlError } from '../errors.ts';

/**
 * Refuses a save that keeps a stored secret (sends the placeholder) while changing a field that
 * decides where it goes (SECRET_DESTINATIONS, shared with the screens): code
 * 'secret-destination', one issue per row, nothing written.
 */
export function refuseMovedSecrets(
  key: TSecretDestinationKey,
  stored: readonly Readonly<Record<string, unknown>>[],
  sent: readonly Readonly<Record<string, unknown>>[],
): void {
  const issues = movedSecretIssues(SECRET_DESTINATIONS[key], stored, sent);
  if (issues.length === 0) return;
  const rows = issues.map((i) => i.message).join(' ');
  throw new ConfigXmlError('secret-destination', `${rows} ${MOVED_SECRET_REASON} Rien n'a été enregistré.`, {
    issues,
  });
}
