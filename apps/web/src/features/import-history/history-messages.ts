/**
 * The import history's texts (docs/spec-notes.md, Web: Historique d'importation, as written;
 * French spacing applied where the spec's plain space sits before a colon).
 */
export const HISTORY_TEXT = {
  title: "Historique d'importation",
  description: 'Les saisies des terminaux mobiles importées dans votre ERP, et leur état de traitement.',
  /** HISTORY_RETENTION_DAYS set: said under the title (`days` already formatted). */
  retention: (days: string) =>
    `Les enregistrements de plus de ${days}\u00a0jours sont supprimés automatiquement.`,
  /** The version label of this screen (« shows the version label 6.16.26 », same notes). */
  version: '6.16.26',
  loading: "Chargement de l'historique en cours...",
  /** « History fetch: 'Failed to fetch history' » (same notes). */
  fetchFailed: 'Failed to fetch history',
  loadErrorTitle: "Impossible de charger l'historique",
  empty: 'Aucun enregistrement trouvé pour les critères sélectionnés.',
  errorOnly: 'Afficher uniquement les erreurs',
  searchLabel: 'Rechercher',
  searchPlaceholder: 'Référence, type d’élément ou type de traitement',
  statusFailed: "Impossible de modifier l'état de traitement",

  xmlTitle: 'Modifier les données XML',
  xmlLoading: 'Chargement des données XML...',
  xmlLoadFailed: 'Impossible de charger les données XML',
  xmlOriginalMissing: 'Document XML original non disponible',
  xmlTooLargeServer: 'Le fichier XML est trop volumineux pour être traité par le serveur',
  xmlUpdateFailed: 'Échec de la mise à jour',
  xmlSaveFallback: 'Impossible de sauvegarder les modifications',
  documentDownloaded: 'Document téléchargé avec succès',
  documentMissing: 'Nom du document ou contenu manquant',
  documentFailed: 'Impossible de télécharger le document',

  logTitle: 'Log de synchronisation',
  logEmpty: 'Aucun log disponible',
  logCopied: 'Copié\u202f!',
  logCopyFailed: 'Impossible de copier le log',
  logLoadFailed: 'Impossible de charger le log',

  fileIdMissing: 'Identifiant de fichier manquant.',
  fileNotFound: "Fichier non disponible - Aucun fichier n'est disponible pour cet enregistrement.",
  fileFailed: 'Impossible de télécharger le fichier.',
} as const;

/**
 * The state of the Traité cell and what a click does (docs/spec-notes.md, Import history and
 * transaction trace: 0 → 1 → -1 → 0).
 */
export const ETAT_TEXT: Record<-1 | 0 | 1, { label: string; action: string }> = {
  0: { label: 'Non traité', action: 'marquer comme traité' },
  1: { label: 'Traité', action: 'marquer en erreur' },
  [-1]: { label: 'Erreur', action: 'remettre à importer' },
};
