import type {
  AutomateFacts,
  ErrorDigestFacts,
  ItemList,
  LastSyncFacts,
  MailFacts,
  OrderFailure,
  OrderRefusedFacts,
  RecordItem,
  RenderedMail,
  SyncReportFacts,
  TestFacts,
  TransactionItem,
} from './facts.ts';
import {
  formatInstant,
  formatNumber,
  NBSP,
  plural,
  quote,
  renderHtml,
  renderText,
  type Block,
} from './layout.ts';

/**
 * The French emails (docs/mail.md, What is sent), one function per kind: subject, plain text and
 * HTML from the facts of the outbox row. Links lead to the console (PUBLIC_URL): the history and
 * the trace filtered on a reference and on errors, the Complément screen.
 */

const SYNC_TYPES: Record<OrderRefusedFacts['type'], string> = {
  C: 'Complète',
  R: 'Incrémentale',
  I: 'Import des saisies',
};

function listLink(
  publicUrl: string,
  screen: 'import-history' | 'transaction-logs',
  search: string,
  errors = true,
) {
  const params = new URLSearchParams();
  if (search !== '') params.set('search', search);
  if (errors) params.set('errors', '1');
  const query = params.toString();
  return `${publicUrl}/${screen}${query ? `?${query}` : ''}`;
}

function recordBlocks(
  publicUrl: string,
  zone: string,
  title: string,
  list: ItemList<RecordItem> | undefined,
  errors: boolean,
): Block[] {
  if (!list || list.count === 0) return [];
  const more = list.count - list.items.length;
  return [
    { kind: 'heading', text: `${title} (${formatNumber(list.count)})` },
    {
      kind: 'list',
      items: list.items.map((r) => ({
        text: `${r.ref || r.id} – ${r.type} – ${formatInstant(r.at, zone)}`,
        href: listLink(publicUrl, 'import-history', r.ref, errors),
      })),
      ...(more > 0
        ? {
            more: {
              text: `et ${plural(more, 'autre', 'autres')} dans l’historique d’importation`,
              href: listLink(publicUrl, 'import-history', '', errors),
            },
          }
        : {}),
    },
  ];
}

function transactionBlocks(
  publicUrl: string,
  zone: string,
  list: ItemList<TransactionItem> | undefined,
): Block[] {
  if (!list || list.count === 0) return [];
  const more = list.count - list.items.length;
  return [
    { kind: 'heading', text: `Transactions en erreur (${formatNumber(list.count)})` },
    {
      kind: 'list',
      items: list.items.map((t) => ({
        text: `${t.id} – ${[t.typeDoc, t.ref].filter(Boolean).join(' ') || 'document'} – ${t.terminal || 'terminal inconnu'} – ${formatInstant(t.at, zone)}`,
        href: listLink(publicUrl, 'transaction-logs', t.ref),
      })),
      ...(more > 0
        ? {
            more: {
              text: `et ${plural(more, 'autre', 'autres')} dans la trace des transactions`,
              href: listLink(publicUrl, 'transaction-logs', ''),
            },
          }
        : {}),
    },
  ];
}

function lastSyncRows(s: LastSyncFacts, zone: string): [string, string][] {
  const rows: [string, string][] = [];
  rows.push(['Type', s.type ?? 'non communiqué']);
  rows.push(['Date', s.at ? formatInstant(s.at, zone) : 'non communiquée']);
  rows.push(['Durée', s.duration ?? 'non communiquée']);
  rows.push(['Enregistrements', s.records === null ? 'non communiqué' : formatNumber(s.records)]);
  rows.push([
    'Vitesse',
    s.speed === null ? 'non communiquée' : `${formatNumber(s.speed)} enregistrements par minute`,
  ]);
  rows.push(['Volume', s.volume ?? 'non communiqué']);
  return rows;
}

function alerts(s: LastSyncFacts): Block[] {
  const out: Block[] = [];
  if (s.durationAlert) out.push({ kind: 'alert', text: 'Durée excessive signalée par le connecteur.' });
  if (s.volumeAlert)
    out.push({
      kind: 'alert',
      text: 'Volume de données trop important : réduisez l’historique ou limitez les éléments synchronisés.',
    });
  return out;
}

const consoleLink = (publicUrl: string): Block => ({
  kind: 'link',
  text: 'Ouvrir la console',
  href: `${publicUrl}/`,
});

function syncReport(
  f: SyncReportFacts,
  publicUrl: string,
): { subject: string; title: string; blocks: Block[] } {
  const a = f.activity;
  const errors = (a.rejected?.count ?? 0) + (a.failedTransactions?.count ?? 0);
  const when = f.lastSync.at ? ` du ${formatInstant(f.lastSync.at, f.zone).slice(0, 16)}` : '';
  const blocks: Block[] = [
    {
      kind: 'paragraph',
      text: `Le connecteur de l’installation ${f.syncId} a terminé une synchronisation.`,
    },
    { kind: 'facts', rows: lastSyncRows(f.lastSync, f.zone) },
    ...alerts(f.lastSync),
  ];
  if (a.imported && a.imported.count > 0)
    blocks.push({
      kind: 'paragraph',
      text: `${plural(a.imported.count, 'saisie mobile importée', 'saisies mobiles importées')}.`,
    });
  if (errors === 0) blocks.push({ kind: 'paragraph', text: 'Aucune erreur pendant cette synchronisation.' });
  blocks.push(...recordBlocks(publicUrl, f.zone, 'Enregistrements rejetés', a.rejected, true));
  blocks.push(...transactionBlocks(publicUrl, f.zone, a.failedTransactions));
  blocks.push(consoleLink(publicUrl));
  return {
    subject: `Rapport de synchronisation ${f.syncId}${NBSP}: ${f.lastSync.type ?? 'synchronisation'}${when}${
      errors > 0 ? `, ${plural(errors, 'erreur', 'erreurs')}` : ''
    }`,
    title: 'Rapport de synchronisation',
    blocks,
  };
}

function importReport(f: SyncReportFacts, publicUrl: string) {
  const imported = f.activity.imported?.count ?? 0;
  const rejected = f.activity.rejected?.count ?? 0;
  const blocks: Block[] = [
    {
      kind: 'paragraph',
      text: `Import des saisies de l’installation ${f.syncId} terminé${
        f.lastSync.at ? ` le ${formatInstant(f.lastSync.at, f.zone)}` : ''
      }${NBSP}: ${plural(imported, 'saisie importée', 'saisies importées')}, ${plural(rejected, 'rejetée', 'rejetées')}.`,
    },
    ...recordBlocks(publicUrl, f.zone, 'Saisies importées', f.activity.imported, false),
    ...recordBlocks(publicUrl, f.zone, 'Saisies rejetées', f.activity.rejected, true),
    consoleLink(publicUrl),
  ];
  return {
    subject: `Import des saisies ${f.syncId}${NBSP}: ${plural(imported, 'importée', 'importées')}, ${plural(rejected, 'rejetée', 'rejetées')}`,
    title: 'Import des saisies',
    blocks,
  };
}

function errorDigest(f: ErrorDigestFacts, publicUrl: string) {
  const records = f.records?.count ?? 0;
  const transactions = f.transactions?.count ?? 0;
  const parts = [
    records > 0 ? plural(records, 'enregistrement', 'enregistrements') : null,
    transactions > 0 ? plural(transactions, 'transaction', 'transactions') : null,
  ].filter(Boolean);
  return {
    subject: `Erreurs de synchronisation ${f.syncId}${NBSP}: ${parts.join(' et ')} en erreur`,
    title: 'Erreurs de synchronisation',
    blocks: [
      {
        kind: 'paragraph',
        text: `Arrivés en erreur depuis le ${formatInstant(f.since, f.zone)} pour l’installation ${f.syncId}${NBSP}: ${parts.join(' et ')}.`,
      },
      ...recordBlocks(publicUrl, f.zone, 'Enregistrements en erreur', f.records, true),
      ...transactionBlocks(publicUrl, f.zone, f.transactions),
      {
        kind: 'paragraph',
        text: 'Les erreurs suivantes seront regroupées dans un prochain email, au plus un par quart d’heure.',
      },
      consoleLink(publicUrl),
    ] satisfies Block[],
  };
}

function automateRows(f: AutomateFacts): [string, string][] {
  return [
    ['Machine', f.machineName || 'non communiquée'],
    ['Version', f.version || 'non communiquée'],
    ['Dernier signal', formatInstant(f.lastReportAt, f.zone)],
  ];
}

function automateOffline(f: AutomateFacts, publicUrl: string) {
  return {
    subject: `Service d’automate hors ligne (${f.syncId})`,
    title: 'Service d’automate hors ligne',
    blocks: [
      {
        kind: 'paragraph',
        text: `Le service d’automate de l’installation ${f.syncId} ne s’est pas manifesté depuis plus de 24${NBSP}heures. Les synchronisations planifiées et les demandes envoyées depuis la console ne peuvent pas s’exécuter tant qu’il est arrêté ou injoignable.`,
      },
      { kind: 'facts', rows: automateRows(f) },
      {
        kind: 'paragraph',
        text: 'Vérifiez que le service est démarré sur le serveur de l’ERP et qu’il accède à Internet.',
      },
      consoleLink(publicUrl),
    ] satisfies Block[],
  };
}

function automateOnline(f: AutomateFacts, publicUrl: string) {
  return {
    subject: `Service d’automate de nouveau en ligne (${f.syncId})`,
    title: 'Service d’automate de nouveau en ligne',
    blocks: [
      {
        kind: 'paragraph',
        text: `Le service d’automate de l’installation ${f.syncId} s’est de nouveau manifesté${
          f.backAt ? ` le ${formatInstant(f.backAt, f.zone)}` : ''
        }, après plus de 24${NBSP}heures de silence.`,
      },
      { kind: 'facts', rows: automateRows(f) },
      consoleLink(publicUrl),
    ] satisfies Block[],
  };
}

/** Why an order did not go through, one exact sentence per outcome (the reason of the email). */
export const ORDER_FAILURE_REASONS: Record<OrderFailure, string> = {
  refused: 'Le service d’automate a refusé la demande.',
  unreachable: `Le service d’automate est injoignable${NBSP}: la demande ne lui est pas parvenue.`,
  timeout: `Le service d’automate n’a pas répondu à temps${NBSP}: la demande a pu ne pas lui parvenir.`,
  redirect: `Le service d’automate a répondu par une redirection, que la console ne suit pas${NBSP}: la demande n’a pas été traitée.`,
  'answer-too-large': `La réponse du service d’automate est trop volumineuse pour être lue${NBSP}: impossible de savoir si la demande a été acceptée.`,
  'malformed-answer': `La réponse du service d’automate est illisible${NBSP}: impossible de savoir si la demande a été acceptée.`,
  'no-automate': `Aucun service d’automate n’est enregistré pour cette installation${NBSP}: la demande n’a pas pu être envoyée. Installez le service sur le serveur de l’ERP, puis relancez la synchronisation.`,
  'address-refused': `L’adresse déclarée par le service d’automate n’est pas autorisée par la console${NBSP}: la demande ne lui a pas été envoyée.`,
  error: `Une erreur inattendue de la console a interrompu la demande${NBSP}: impossible de savoir si elle est parvenue au service d’automate. Relancez la synchronisation${NBSP}; si l’erreur se répète, contactez le support.`,
};

function orderRefused(f: OrderRefusedFacts, publicUrl: string) {
  const lines = f.retInfo.split('\n').filter((l) => l.trim() !== '');
  return {
    subject: `Demande de synchronisation non aboutie (${f.syncId})`,
    title: 'Demande de synchronisation non aboutie',
    blocks: [
      {
        kind: 'paragraph',
        text: `La demande de synchronisation ${quote(SYNC_TYPES[f.type])} faite depuis la console le ${formatInstant(f.at, f.zone)} n’a pas abouti.`,
      },
      { kind: 'heading', text: 'Raison' },
      { kind: 'paragraph', text: ORDER_FAILURE_REASONS[f.outcome] },
      ...(lines.length > 0
        ? [
            {
              kind: 'heading',
              text:
                f.outcome === 'refused' ? 'Réponse du service d’automate' : 'Message affiché dans la console',
            } satisfies Block,
            ...lines.map((text): Block => ({ kind: 'paragraph', text })),
          ]
        : []),
      consoleLink(publicUrl),
    ] satisfies Block[],
  };
}

const SAMPLE: LastSyncFacts = {
  at: null,
  type: 'Complète',
  duration: '00:04:11',
  records: 1838,
  speed: 5927,
  volume: '3,721 Mo',
  durationAlert: false,
  volumeAlert: false,
};

function testReport(f: TestFacts, publicUrl: string) {
  const sync = f.lastSync ?? SAMPLE;
  return {
    subject: `Rapport de test ${f.syncId}${NBSP}: les emails de la console vous parviennent`,
    title: 'Rapport de test',
    blocks: [
      {
        kind: 'paragraph',
        text: `Cet email de test a été demandé depuis l’écran Complément de la console pour l’installation ${f.syncId}. Vous recevrez les rapports et les notifications cochés à cette adresse.`,
      },
      {
        kind: 'heading',
        text: f.lastSync
          ? 'Dernière synchronisation'
          : 'Exemple de rapport (aucune synchronisation encore signalée)',
      },
      { kind: 'facts', rows: lastSyncRows(sync, f.zone) },
      consoleLink(publicUrl),
    ] satisfies Block[],
  };
}

function parts(mail: MailFacts, publicUrl: string): { subject: string; title: string; blocks: Block[] } {
  switch (mail.kind) {
    case 'sync-report':
      return syncReport(mail.facts, publicUrl);
    case 'import':
      return importReport(mail.facts, publicUrl);
    case 'errors':
      return errorDigest(mail.facts, publicUrl);
    case 'automate-offline':
      return automateOffline(mail.facts, publicUrl);
    case 'automate-online':
      return automateOnline(mail.facts, publicUrl);
    case 'order-refused':
      return orderRefused(mail.facts, publicUrl);
    case 'test':
      return testReport(mail.facts, publicUrl);
  }
}

export function renderMail(mail: MailFacts, publicUrl: string): RenderedMail {
  const { subject, title, blocks } = parts(mail, publicUrl);
  const layout = { title, blocks, publicUrl };
  return { subject, text: renderText(layout), html: renderHtml(layout) };
}
