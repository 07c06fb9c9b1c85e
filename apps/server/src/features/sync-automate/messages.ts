import { formatBytes } from '../../http/connector-api.ts';
import { networkFault } from '../../network/network-faults.ts';

/**
 * The French texts of a sync order's answer (`retInfo`), one per outcome (docs/server.md, Sync
 * orders). The legacy ones (docs/spec-notes.md, Automate) are kept, without the vendor's names.
 */

export const NOT_PREMIUM_MESSAGE = 'Cette fonctionnalité nécessite une licence Premium';

export const NO_AUTOMATE_MESSAGE =
  "Vous ne disposez pas actuellement du service d'automate : aucun service n'est enregistré pour cette installation. " +
  'Rapprochez-vous de votre fournisseur pour procéder à son installation.';

export const BUSY_MESSAGE =
  "Une demande de synchronisation est déjà en cours d'envoi au service d'automate pour cette installation. " +
  "Attendez sa réponse avant d'en lancer une autre.";

export const UNREACHABLE_MESSAGE =
  "La communication avec votre serveur a échoué. Vérifiez que votre service d'automate est bien démarré et accessible.";

export const ACCEPTED_DEFAULT_MESSAGE = "Demande de synchronisation transmise au service d'automate.";
export const REFUSED_DEFAULT_MESSAGE = "Le service d'automate a refusé la demande sans en donner la raison.";

export function addressRefusedMessage(policyMessage: string): string {
  return `La demande de synchronisation n'a pas été envoyée. ${policyMessage}`;
}

export function rateLimitedMessage(max: number, windowMs: number, retryMs: number): string {
  const windowMinutes = Math.max(1, Math.round(windowMs / 60_000));
  const retryMinutes = Math.max(1, Math.ceil(retryMs / 60_000));
  const per = windowMinutes === 1 ? 'par minute' : `toutes les ${windowMinutes} minutes`;
  return (
    `Trop de demandes de synchronisation : au plus ${max} ${per} pour une installation. ` +
    `Réessayez dans ${retryMinutes} minute${retryMinutes > 1 ? 's' : ''}.`
  );
}

/** Unreachable, with the address tried and what the network said. */
export function unreachableMessage(hostPort: string, code: string): string {
  return `${UNREACHABLE_MESSAGE} (${hostPort} : ${networkFault(code) ?? 'erreur réseau'})`;
}

export function timeoutMessage(hostPort: string, timeoutMs: number): string {
  return (
    `Le service d'automate (${hostPort}) n'a pas répondu dans les ${Math.round(timeoutMs / 1000)} secondes : ` +
    "la demande a pu ne pas lui parvenir. Vérifiez qu'il est bien démarré et joignable, puis réessayez."
  );
}

export function redirectMessage(status: number): string {
  return (
    `Le service d'automate a répondu par une redirection (HTTP ${status}), que la console ne suit pas : ` +
    "la demande n'a pas été traitée. Vérifiez l'adresse et le port déclarés par le service."
  );
}

export function answerTooLargeMessage(maxBytes: number): string {
  return (
    `La réponse du service d'automate dépasse ${formatBytes(maxBytes)} : la console ne l'a pas lue. ` +
    "Vérifiez que l'adresse et le port déclarés sont bien ceux du service d'automate."
  );
}

/** The answer could not be read; `why` says what was wrong with it. */
export function malformedAnswerMessage(why: string): string {
  return (
    `La réponse du service d'automate est illisible (${why}) : impossible de savoir si la demande a été acceptée. ` +
    'Vérifiez la version du service.'
  );
}

/** Days or hours, as a French reader writes a long silence: « 26 heures », « 3 jours ». */
export function silenceText(ms: number): string {
  const hours = Math.floor(ms / 3_600_000);
  if (hours < 48) return `${hours} heures`;
  return `${Math.floor(hours / 24)} jours`;
}

/** Put before the answer when the service has been silent for over 24 hours. */
export function silentWarning(
  silenceMs: number,
  lastReport: { date: string; time: string; offset: string },
): string {
  return (
    `Attention : le service d'automate ne s'est plus signalé depuis ${silenceText(silenceMs)} ` +
    `(dernier signal le ${lastReport.date} à ${lastReport.time}, ${lastReport.offset}) : ` +
    'il est peut-être arrêté. La demande lui a tout de même été envoyée.'
  );
}
