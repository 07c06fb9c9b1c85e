import { NBSP } from '../../lib/format.ts';

/** Warning texts of the Général screen (docs/spec-notes.md, Web: Général). */
export const WARNINGS = {
  connectionFailed: `Connexion à la base impossible${NBSP}: utilisez l'utilitaire de reconnexion du connecteur.`,
  automateUpdate: `Mise à jour requise${NBSP}: cliquez sur le bouton de mise à jour dans le connecteur.`,
  stale: `Synchronisation requise${NBSP}: la dernière synchronisation date de plus de 72${NBSP}heures.`,
  duration: `Durée de synchronisation excessive${NBSP}: réduisez l'historique ou limitez les éléments synchronisés.`,
  volume: `Volume de données trop important${NBSP}: réduisez l'historique ou limitez les éléments synchronisés.`,
} as const;

export const SYNC_RUNNING_LABEL = 'Synchronisation en cours...';
export const SYNC_TOAST_TITLE = 'Synchronisation';
export const SYNC_ERROR_TITLE = 'Erreur de synchronisation';
