/**
 * The outcome of importing a queued record (connector-api.md `POST /import-records/{id}/result`):
 * Etat 1 with a log, sometimes with the document the ERP produced (a PDF of the quote), or Etat -1
 * with a log of several lines saying why.
 */
import { decodeConnectorText } from '@synchro/config-xml';
import type { TImportResult, TQueuedRecord } from '../api-types.ts';
import { importLog } from './records.ts';
import { minimalPdf } from './files.ts';
import type { Random } from '../random.ts';

export interface ImportResultOptions {
  /** The sync failed: the ERP could not be reached. */
  failed?: boolean;
  /** Share rejected (default 0.15). */
  errorRate?: number;
}

const REJECTIONS = [
  "Le client du document n'existe plus dans l'ERP.",
  "Le document a été modifié dans l'ERP depuis sa capture sur le terminal.",
  'Un article du document est en sommeil.',
  'La période comptable du document est clôturée.',
];

export function importResult(
  rng: Random,
  record: TQueuedRecord,
  options: ImportResultOptions = {},
): TImportResult {
  const what = `${record.TypeEnreg} ${decodeConnectorText(record.RefDoc)}`.trim();
  if (options.failed) {
    return {
      Etat: -1,
      Log: importLog([
        `Reprise de l'import de ${what}`,
        'Connexion à la base de données impossible.',
        'Import annulé.',
      ]),
    };
  }
  if (rng.chance(options.errorRate ?? 0.15)) {
    return {
      Etat: -1,
      Log: importLog([
        `Reprise de l'import de ${what}`,
        `Erreur : ${rng.pick(REJECTIONS)}`,
        'Import annulé.',
      ]),
    };
  }
  const result: TImportResult = {
    Etat: 1,
    Log: importLog([`Reprise de l'import de ${what}`, 'Import terminé sans erreur.']),
  };
  if (record.TypeEnreg === 'DocumentDEVIS' && rng.chance(0.5)) {
    const ref = decodeConnectorText(record.RefDoc);
    result.Fichier = {
      Nom: `DEVIS-${ref}.pdf`,
      Contenu: minimalPdf(`Devis ${ref}`, [
        "Document produit par l'ERP après import.",
        `Saisi le ${record.DateHeure.slice(0, 10).split('-').reverse().join('/')}`,
      ]).toString('base64'),
    };
  }
  return result;
}
