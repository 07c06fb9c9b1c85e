import { VERSION_AUTHOR_LABELS, type TConfigVersionRow } from '@synchro/contracts';
import { formatByteSize, formatNumber } from '../../lib/format.ts';

/** Texts of the configuration history screen. */
export const HISTORY_TEXT = {
  title: 'Historique de la configuration',
  description:
    'Chaque enregistrement de la configuration, qui l’a fait et ce qui a changé. Ouvrez les changements d’une version ou restaurez-la.',
  connectorToggle: 'Afficher les mises à jour du connecteur',
  loading: 'Chargement de l’historique de la configuration…',
  loadErrorTitle: 'Impossible de charger l’historique de la configuration',
  empty: 'Aucune version conservée.',
  seeChanges: 'Voir les changements',
  restore: 'Restaurer',
  current: 'Version actuelle',
} as const;

/** « Console (192.0.2.10) », « Connecteur »… */
export function authorLabel(row: Pick<TConfigVersionRow, 'author' | 'address'>): string {
  const label = VERSION_AUTHOR_LABELS[row.author];
  return row.author === 'user' && row.address ? `${label} (${row.address})` : label;
}

/** « 96 mises à jour du connecteur ». */
export function foldLabel(count: number): string {
  return `${formatNumber(count)}\u00a0${count > 1 ? 'mises à jour' : 'mise à jour'} du connecteur`;
}

/** The retention as the screen says it. */
export function retentionText(retention: { keep: number; maxAgeDays: number; maxBytes: number }): string {
  return `Sont conservées les ${formatNumber(retention.keep)} dernières versions enregistrées par la console (réparations et restaurations comprises), pendant ${formatNumber(retention.maxAgeDays)}\u00a0jours au plus et dans la limite de ${formatByteSize(retention.maxBytes)} enregistrés ; les mises à jour du connecteur sont comptées à part. Une version plus ancienne n’apparaît plus.`;
}
