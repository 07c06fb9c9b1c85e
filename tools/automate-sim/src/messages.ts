/**
 * The automate's French messages. They are the peer's texts, written as the legacy service
 * writes them (plain spaces before `:`, as in the connector's own `Version : 6.11.23.9`).
 */
import type { Random } from './random.ts';
import type { SyncType } from './order-codec.ts';

/** TypeDeSync of DerSynchro, as the connector names the three kinds (before its text encoding). */
export const SYNC_TYPE_LABEL: Record<SyncType, string> = {
  C: 'Complète',
  R: 'Incrémentale',
  I: 'Import des saisies',
};

const ACCEPTED_FIRST: Record<SyncType, readonly string[]> = {
  C: [
    'Demande de synchronisation complète prise en compte par {machine}.',
    'La synchronisation complète a démarré sur {machine}.',
  ],
  R: [
    'Demande de synchronisation incrémentale prise en compte par {machine}.',
    'La synchronisation incrémentale a démarré sur {machine}.',
  ],
  I: [
    "Demande d'import des saisies prise en compte par {machine}.",
    "L'import des saisies des terminaux a démarré sur {machine}.",
  ],
};

const ACCEPTED_NEXT: readonly string[] = [
  "Les données seront à jour d'ici quelques minutes.",
  "Vous pouvez suivre l'avancement dans l'historique des imports.",
  "Le tableau de bord affichera l'heure de la dernière synchronisation dès qu'elle sera terminée.",
];

/** The lines of RetInfo for an accepted order. */
export function acceptedLines(type: SyncType, machineName: string, rng: Random): string[] {
  return [rng.pick(ACCEPTED_FIRST[type]).replace('{machine}', machineName), rng.pick(ACCEPTED_NEXT)];
}

export const BUSY_LINES = [
  'Une synchronisation est déjà en cours sur ce serveur.',
  "Merci de patienter jusqu'à la fin de celle-ci avant d'en demander une autre.",
];

export const REPLAYED_ORDER_REASON = 'Demande refusée : cette demande a déjà été reçue.';
