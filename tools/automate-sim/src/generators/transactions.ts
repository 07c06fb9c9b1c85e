/**
 * The trace of the exchanges with the terminals (connector-api.md `POST /transactions`): for the
 * configuration's declared terminals only, some in error, each with a log of several lines in the
 * connector's text convention, unique IDs and the connector's running numbers.
 */
import { encodeConnectorText } from '@synchro/config-xml';
import type { TImportRecord, TTransaction } from '../api-types.ts';
import { wallClockIso } from '../connector-time.ts';
import type { GeneratorContext } from './context.ts';

export interface TransactionOptions {
  /** Transactions in all; by default 1 to 5 per declared terminal. */
  count?: number;
  /** The sync failed: most exchanges end in error. */
  failed?: boolean;
  /** Share in error in a sync that did not fail (default 0.1). */
  errorRate?: number;
  /** How long the sync lasted: the exchanges are dated within it. */
  durationSeconds: number;
  /** Records of this sync: each came through one exchange with its terminal. */
  records?: readonly TImportRecord[];
}

const EXCHANGES = [
  { TypeDoc: 'ARTICLES', what: 'Envoi du catalogue articles', unit: 'articles' },
  { TypeDoc: 'CLIENTS', what: 'Envoi des clients et prospects', unit: 'tiers' },
  { TypeDoc: 'PLANNING', what: 'Envoi du planning des interventions', unit: 'rendez-vous' },
  { TypeDoc: 'STOCK', what: 'Envoi des stocks du dépôt', unit: 'lignes de stock' },
  { TypeDoc: 'DOCUMENTS', what: "Envoi de l'historique des documents", unit: 'documents' },
] as const;

const TYPE_DOC_OF_RECORD: Record<string, string> = {
  DocumentDEVIS: 'DEVIS',
  Intervention: 'INTERVENTION',
  TiersCP: 'TIERS',
  GED: 'GED',
};

const ERRORS = [
  'Délai dépassé pendant la réception du terminal (connexion 4G instable).',
  "Le terminal n'a pas confirmé la réception du lot.",
  "Licence du terminal non reconnue : vérifiez l'identifiant de l'appareil.",
  'Base locale du terminal pleine : purger les documents envoyés.',
];

const CRLF = '\r\n';
const DEVICE = /<Device>([^<]*)<\/Device>/;

export function generateTransactions(ctx: GeneratorContext, options: TransactionOptions): TTransaction[] {
  const { rng } = ctx;
  if (ctx.terminals.length === 0) return [];
  const errorRate = options.failed ? 0.8 : (options.errorRate ?? 0.1);
  const records = options.records ?? [];
  const count = options.count ?? ctx.terminals.reduce((n) => n + rng.int(1, 5), records.length);
  const startMs = ctx.nowMs - options.durationSeconds * 1000;
  const out: TTransaction[] = [];
  for (let i = 0; i < count; i++) {
    const record = records[i];
    const recordDevice = record ? DEVICE.exec(record.Enreg)?.[1] : undefined;
    const owner = ctx.terminals.find((t) => recordDevice !== undefined && t.deviceIds.includes(recordDevice));
    const terminal = owner ?? ctx.terminals[i % ctx.terminals.length] ?? rng.pick(ctx.terminals);
    const deviceId = owner && recordDevice ? recordDevice : rng.pick(terminal.deviceIds);
    const at = startMs + Math.floor(((i + rng.next()) / Math.max(count, 1)) * options.durationSeconds * 1000);
    const inError = rng.chance(errorRate);
    let typeDoc: string;
    let refDoc: string;
    let lines: string[];
    if (record) {
      typeDoc = TYPE_DOC_OF_RECORD[record.TypeEnreg] ?? record.TypeEnreg.toUpperCase();
      refDoc = record.RefDoc;
      lines = [
        `Réception ${typeDoc} ${refDoc} depuis ${terminal.name}`,
        `Contrôle du document : ${record.NumLigne} ligne${record.NumLigne > 1 ? 's' : ''}`,
      ];
    } else {
      const exchange = rng.pick(EXCHANGES);
      typeDoc = exchange.TypeDoc;
      refDoc = '';
      lines = [
        `${exchange.what} vers ${terminal.name}`,
        `Préparation : ${rng.int(5, 2500)} ${exchange.unit}`,
      ];
    }
    if (inError) {
      lines.push(
        `Erreur : ${rng.pick(ERRORS)}`,
        'Transaction annulée, elle sera rejouée à la prochaine synchronisation.',
      );
    } else {
      lines.push(`Transfert terminé (${rng.int(2, 900)} Ko en ${rng.int(1, 40)} s).`);
    }
    out.push({
      ID: ctx.ids.transactionId(),
      Err: inError ? 1 : 0,
      DateHeureTrt: wallClockIso(at, ctx.zone),
      NumTransaction: ctx.ids.nextTransactionNumber(),
      TypeDoc: typeDoc,
      RefDoc: refDoc,
      IDTablette: deviceId,
      LibelleTablette: encodeConnectorText(terminal.name),
      Log: encodeConnectorText(lines.join(CRLF)),
    });
  }
  return out;
}
