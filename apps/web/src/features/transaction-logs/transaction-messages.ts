/** The transaction trace's texts (docs/spec-notes.md, Web: Trace des transactions, as written). */
export const TRACE_TEXT = {
  title: 'Trace des transactions',
  description: 'Les échanges traités par le connecteur pour chaque terminal, avec leur log.',
  /** HISTORY_RETENTION_DAYS set: said under the title (`days` already formatted). */
  retention: (days: string) =>
    `Les transactions de plus de ${days}\u00a0jours sont supprimées automatiquement.`,
  loading: 'Chargement des transactions...',
  empty: 'Aucun log de transaction trouvé pour les critères sélectionnés.',
  loadError: 'Une erreur est survenue lors de la récupération des logs. Veuillez réessayer.',
  loadErrorTitle: 'Impossible de charger la trace des transactions',
  errorOnly: 'Afficher uniquement les erreurs',
  searchLabel: 'Rechercher',
  searchPlaceholder: 'Type de document, ID terminal ou n° de document',
  detailTitle: 'Détail de la transaction',
  logLoadFailed: 'Impossible de charger le log complet',
  seeMore: 'Voir plus',
} as const;

/** The log's first two lines, with an ellipsis when there is more (same notes). */
export function logPreview(log: string, truncated: boolean): string {
  const lines = log.replace(/\r\n?/g, '\n').split('\n');
  const firstTwo = lines.slice(0, 2).join('\n').trimEnd();
  const more = truncated || lines.slice(2).some((line) => line.trim() !== '');
  return more ? `${firstTwo}…` : firstTwo;
}

/** 'Affichage de 25 sur 1 234 enregistrements' (same notes). */
export function displaySummary(shown: number, total: string): string {
  return `Affichage de ${shown} sur ${total} enregistrements`;
}
