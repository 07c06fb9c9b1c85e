import type {
  TSyncHistoryPage,
  TSyncHistoryRow,
  TTransactionLogRow,
  TTransactionLogsPage,
} from '@synchro/contracts';

/** Answers of the history screens' API for the unit tests (shapes of @synchro/contracts). */

export const PARIS = { zone: 'Europe/Paris', offsetMinutes: 60 };

export function historyRow(n: number, patch: Partial<TSyncHistoryRow> = {}): TSyncHistoryRow {
  return {
    IDInterne: `NUXIDEV${String(n).padStart(4, '0')}`,
    Etat: 1,
    TypeEnreg: 'DocumentDEVIS',
    RefDoc: `XX_${1000 + n}`,
    // 14/11/2025 09:12:07 in Paris (UTC+1), one minute older per row.
    DateHeure: new Date(Date.UTC(2025, 10, 14, 8, 12, 7) - n * 60_000).toISOString(),
    NumLigne: 3,
    TypeElement: 'Création',
    hasFile: false,
    hasLog: true,
    ...patch,
  };
}

export function historyPage(
  rows: TSyncHistoryRow[],
  patch: Partial<Omit<TSyncHistoryPage, 'data'>> = {},
): TSyncHistoryPage {
  const total = patch.total ?? rows.length;
  const totalPages = patch.totalPages ?? Math.ceil(total / 25);
  const page = patch.page ?? 1;
  return {
    data: rows,
    total,
    page,
    pageSize: 25,
    totalPages,
    totalExact: true,
    hasPrevious: page > 1,
    hasNext: page < totalPages,
    nextCursor: page < totalPages ? `next-of-${page}` : null,
    previousCursor: page > 1 ? `previous-of-${page}` : null,
    displayTimeZone: PARIS,
    retentionDays: null,
    ...patch,
  };
}

export function transactionRow(n: number, patch: Partial<TTransactionLogRow> = {}): TTransactionLogRow {
  return {
    ID: `T-${String(n).padStart(6, '0')}`,
    Err: 0,
    DateHeureTrt: new Date(Date.UTC(2025, 10, 14, 8, 12, 3) - n * 60_000).toISOString(),
    NumTransaction: String(800 + n),
    TypeDoc: 'DEVIS',
    RefDoc: `XX_${1000 + n}`,
    IDTablette: '815bf75ff86d94fa',
    LibelleTablette: 'pixel 8',
    Log: 'Début de la transaction\nDevis XX importé\nFin de la transaction',
    logTruncated: false,
    ...patch,
  };
}

export function transactionsPage(
  rows: TTransactionLogRow[],
  patch: Partial<TTransactionLogsPage['pagination']> = {},
): TTransactionLogsPage {
  const total = patch.total ?? rows.length;
  const totalPages = patch.totalPages ?? Math.ceil(total / 25);
  const page = patch.page ?? 1;
  return {
    logs: rows,
    pagination: {
      total,
      page,
      pageSize: 25,
      totalPages,
      totalExact: true,
      hasPrevious: page > 1,
      hasNext: page < totalPages,
      nextCursor: page < totalPages ? `next-of-${page}` : null,
      previousCursor: page > 1 ? `previous-of-${page}` : null,
      ...patch,
    },
    displayTimeZone: PARIS,
    retentionDays: null,
  };
}

/** A quote record in the connector's shape (root, header leaves, Enregistrement, two Lignes). */
export const DEVIS_XML = `\ufeff<?xml version="1.0" encoding="utf-8"?>
<SyncNuxiDev>
  <DateHeureExport>20241225095120419</DateHeureExport>
  <Device>8667183f619bbe98</Device>
  <Table>documentdevis</Table>
  <Enregistrement>
    <IDInterne>XX_652015904063</IDInterne>
    <FacturationNom>Ciselure &amp; Fils</FacturationNom>
    <Note>Livrer avant midi
Code portail 1234</Note>
    <IDInterneDepot />
    <Lignes>
      <Ligne>
        <Ligne_Designation>ARTICLETEST</Ligne_Designation>
        <Ligne_Quantite>1</Ligne_Quantite>
      </Ligne>
      <Ligne>
        <Ligne_Designation>Article lot</Ligne_Designation>
        <Ligne_Quantite>2</Ligne_Quantite>
      </Ligne>
    </Lignes>
  </Enregistrement>
</SyncNuxiDev>
`;

/** 'iVBORw0K…' repeated: base64 of about `bytes` bytes (a multiple of 3 keeps it without padding). */
export function base64Of(bytes: number): string {
  const unit = 'QUJD'; // "ABC"
  return unit.repeat(Math.ceil(bytes / 3));
}

/** A GED record with one attached document, NomDocument / BinaireDocument. */
export function gedXml(name: string, base64: string, table = 'ged'): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<SyncNuxiDev>
  <Table>${table}</Table>
  <Enregistrement>
    <IDInterne>GED_0001</IDInterne>
    <NomDocument>${name}</NomDocument>
    <BinaireDocument>${base64}</BinaireDocument>
    <Commentaire>Photo du chantier</Commentaire>
  </Enregistrement>
</SyncNuxiDev>`;
}
