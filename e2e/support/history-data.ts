import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TImportRecordsRequest } from '@synchro/contracts';

// Real rows for the history screens' browser tests, sent the way the connector sends them:
// POST /api/connector/v1/import-records and /transactions with the e2e installation's token
// (written by start-server.mjs). Every spec marks its rows with a prefix of its own run and
// searches for it, so that its figures do not depend on what other specs (the simulator's
// syncs) add to the same installation.

type RecordInput = TImportRecordsRequest['records'][number];

export interface TransactionInput {
  ID: string;
  Err: 0 | 1;
  DateHeureTrt: string;
  NumTransaction: string;
  TypeDoc: string;
  RefDoc: string;
  IDTablette: string;
  LibelleTablette: string;
  Log: string;
}

/** The connector's text convention: UTF-8 bytes read as Latin-1 (`Création` → `CrÃ©ation`). */
export function toConnectorText(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

export function connectorToken(port: number): string {
  return readFileSync(path.join(tmpdir(), `synchro-e2e-${port}-connector-token`), 'utf8').trim();
}

/** The connector token of the second installation (E2EOFF01), which no simulator writes to. */
export function offlineConnectorToken(port: number): string {
  return readFileSync(path.join(tmpdir(), `synchro-e2e-${port}-offline-connector-token`), 'utf8').trim();
}

async function post(baseUrl: string, token: string, route: string, body: unknown): Promise<void> {
  const res = await fetch(`${baseUrl}/api/connector/v1/${route}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${route} : ${res.status} ${await res.text()}`);
}

/** Sends records in batches of at most 500 (or one by one when they are big). */
export async function postRecords(baseUrl: string, token: string, records: RecordInput[]): Promise<void> {
  const batch: RecordInput[] = [];
  let bytes = 0;
  for (const record of records) {
    const size = record.Enreg.length + (record.Fichier?.Contenu.length ?? 0);
    if (batch.length === 500 || (batch.length > 0 && bytes + size > 40_000_000)) {
      await post(baseUrl, token, 'import-records', { records: batch.splice(0) });
      bytes = 0;
    }
    batch.push(record);
    bytes += size;
  }
  if (batch.length > 0) await post(baseUrl, token, 'import-records', { records: batch });
}

export async function postTransactions(
  baseUrl: string,
  token: string,
  transactions: TransactionInput[],
): Promise<void> {
  for (let i = 0; i < transactions.length; i += 1000) {
    const chunk = transactions.slice(i, i + 1000).map((t) => ({
      ...t,
      TypeDoc: toConnectorText(t.TypeDoc),
      LibelleTablette: toConnectorText(t.LibelleTablette),
      Log: toConnectorText(t.Log),
    }));
    await post(baseUrl, token, 'transactions', { transactions: chunk });
  }
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A quote record as the terminals send it: header, Enregistrement, two lines. */
export function devisXml(reference: string, customer: string): string {
  return `\ufeff<?xml version="1.0" encoding="utf-8"?>
<SyncNuxiDev>
  <DateHeureExport>20241225095120419</DateHeureExport>
  <Device>8667183f619bbe98</Device>
  <Table>documentdevis</Table>
  <NDEvenement>A</NDEvenement>
  <Enregistrement>
    <IDInterne>${reference}</IDInterne>
    <TypeDocument>DEVIS</TypeDocument>
    <FacturationNom>${escapeXml(customer)}</FacturationNom>
    <Facturation_Ville>SAINT ÉTIENNE</Facturation_Ville>
    <Note />
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
}

/** A GED record carrying one document (`NomDocument` / `BinaireDocument`), base64 of `bytes` bytes. */
export function gedXml(reference: string, fileName: string, bytes: number): string {
  // A tiny PNG header then filler: the file type is real, the size chosen.
  const png = Buffer.alloc(bytes, 0x41);
  Buffer.from('89504e470d0a1a0a', 'hex').copy(png);
  const base64 = png.toString('base64').replace(/(.{76})/g, '$1\n');
  return `<?xml version="1.0" encoding="utf-8"?>
<SyncNuxiDev>
  <Table>ged</Table>
  <Enregistrement>
    <IDInterne>${reference}</IDInterne>
    <NomDocument>${fileName}</NomDocument>
    <Commentaire>Photo du chantier</Commentaire>
    <BinaireDocument>${base64}</BinaireDocument>
  </Enregistrement>
</SyncNuxiDev>`;
}

/** A record for the connector: texts in its convention, the time a Paris wall clock. */
export function record(
  fields: Omit<RecordInput, 'Enreg' | 'TypeElement' | 'NumLigne'> & {
    Enreg: string;
    TypeElement?: string;
    NumLigne?: number;
  },
): RecordInput {
  return {
    ...fields,
    TypeEnreg: toConnectorText(fields.TypeEnreg ?? ''),
    RefDoc: toConnectorText(fields.RefDoc ?? ''),
    TypeElement: toConnectorText(fields.TypeElement ?? 'Création'),
    NumLigne: fields.NumLigne ?? 2,
    // The byte order mark stays one character (the server reads the record after it).
    Enreg: fields.Enreg.startsWith('\ufeff')
      ? `\ufeff${toConnectorText(fields.Enreg.slice(1))}`
      : toConnectorText(fields.Enreg),
    ...(fields.Log ? { Log: toConnectorText(fields.Log) } : {}),
  };
}
