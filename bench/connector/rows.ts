/**
 * The rows of the ingestion bench: import records of about 2 KB of `Enreg` (a quote in the shape
 * of the real record fixture, accents in the connector's convention) and transactions, the same
 * for the API and for the raw INSERT. Deterministic: row n is always the same.
 */
import { connectorTimeToUtc } from '@synchro/contracts';
import { decodeConnectorText } from '@synchro/config-xml';

const DAY_MS = 86_400_000;
const START = Date.UTC(2025, 0, 1, 7, 0, 0);

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A wall-clock time without offset (as the connector sends it), spread over a year. */
function wallClock(n: number): string {
  const d = new Date(START + (n % 365) * DAY_MS + ((n * 7919) % 36_000) * 1000);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

const CLIENTS = ['Ciselure', 'Boulangerie LÃ©a', 'Ã‰lectricitÃ© Martin', 'Garage du Centre', 'Les Vergers'];
const ARTICLES = [
  'Tube cuivre 14 mm',
  'Raccord Ã  souder',
  'Main dâ€™Å“uvre',
  'DÃ©placement',
  'Vanne Â½ pouce',
];

function line(n: number, i: number): string {
  const qty = 1 + ((n + i) % 9);
  const price = (12.5 + ((n * 31 + i * 7) % 400) / 4).toFixed(2);
  return (
    `      <Ligne>\r\n        <NumLigne>${i + 1}</NumLigne>\r\n        <CodeArticle>ART${pad((n + i) % 997, 4)}</CodeArticle>\r\n` +
    `        <Libelle>${ARTICLES[(n + i) % ARTICLES.length]}</Libelle>\r\n        <Quantite>${qty}</Quantite>\r\n` +
    `        <PrixUnitaireHT>${price}</PrixUnitaireHT>\r\n        <TauxTVA>20</TauxTVA>\r\n      </Ligne>\r\n`
  );
}

/** The record XML of row n: about 2 KB. */
export function enregOf(n: number): string {
  const ref = `XX_${pad(n, 9)}`;
  return (
    '<?xml version="1.0" encoding="utf-8"?>\r\n<SyncNuxiDev>\r\n' +
    `  <DateHeureExport>2025${pad((n % 12) + 1)}14091200000</DateHeureExport>\r\n  <Device>8667183f619bbe98</Device>\r\n` +
    '  <Table>documentdevis</Table>\r\n  <NDEvenement>A</NDEvenement>\r\n  <Enregistrement>\r\n' +
    `    <IDInterne>${ref}</IDInterne>\r\n    <Code>${ref}</Code>\r\n    <TypeDocument>DEVIS</TypeDocument>\r\n` +
    `    <IDInerneTiers>CLI${pad(n % 500, 4)}</IDInerneTiers>\r\n    <FacturationNom>${CLIENTS[n % CLIENTS.length]}</FacturationNom>\r\n` +
    '    <Facturation_Adresse1>Rue des Quais</Facturation_Adresse1>\r\n    <Facturation_CP>42000</Facturation_CP>\r\n' +
    '    <Facturation_Ville>SAINT Ã‰TIENNE</Facturation_Ville>\r\n    <Facturation_Contact_Nom>CAMILLE DURAND</Facturation_Contact_Nom>\r\n' +
    '    <Facturation_Contact_Tel>04 00 00 00 00</Facturation_Contact_Tel>\r\n    <Observations>Devis Ã©tabli sur place, validitÃ© 30 jours.</Observations>\r\n' +
    `    <TotalHT>${(100 + (n % 900)).toFixed(2)}</TotalHT>\r\n    <Lignes>\r\n` +
    line(n, 0) +
    line(n, 1) +
    line(n, 2) +
    line(n, 3) +
    line(n, 4) +
    '    </Lignes>\r\n  </Enregistrement>\r\n</SyncNuxiDev>\r\n'
  );
}

/** Import record n as the connector sends it. */
export function recordOf(n: number, prefix: string) {
  return {
    IDInterne: `${prefix}${pad(n, 9)}`,
    TypeEnreg: n % 10 === 0 ? 'Intervention' : 'DocumentDEVIS',
    RefDoc: `XX_${pad(n, 9)}`,
    DateHeure: wallClock(n),
    NumLigne: n % 7,
    TypeElement: n % 3 === 0 ? 'Modification' : 'CrÃ©ation',
    Etat: n % 100 === 0 ? -1 : n % 13 === 0 ? 0 : 1,
    ...(n % 100 === 0 ? { Log: 'Erreur Ã  lâ€™import :\r\nclient inconnu' } : {}),
    Enreg: enregOf(n),
  };
}

/** Transaction n as the connector sends it. */
export function transactionOf(n: number, prefix: string) {
  return {
    ID: `${prefix}${pad(n, 9)}`,
    Err: n % 10 === 0 ? 1 : 0,
    DateHeureTrt: wallClock(n),
    NumTransaction: String(n),
    TypeDoc: ['DEVIS', 'INTERVENTION', 'COMMANDE'][n % 3] as string,
    RefDoc: `XX_${pad(n, 9)}`,
    IDTablette: `tab${pad(n % 25, 4)}`,
    LibelleTablette: `Tablette de LÃ©a ${n % 25}`,
    Log: `Transaction ${n} traitÃ©e\r\nEnvoi OK\r\nRÃ©ception OK`,
  };
}

/** The demo configuration's Planifications/FuseauHoraire: the zone of the rows' connector times. */
export const ZONE = 'Europe/Paris';

/**
 * Record n in its stored form, the values of the raw INSERT's columns: installation_id,
 * id_interne, type_enreg, ref_doc, date_heure, num_ligne, type_element, etat, log, enreg, has_file.
 */
export function storedRecord(installationId: string, n: number, prefix: string): unknown[] {
  const r = recordOf(n, prefix);
  return [
    installationId,
    r.IDInterne,
    decodeConnectorText(r.TypeEnreg),
    decodeConnectorText(r.RefDoc),
    connectorTimeToUtc(r.DateHeure, ZONE),
    r.NumLigne,
    decodeConnectorText(r.TypeElement),
    r.Etat,
    r.Log ?? '',
    r.Enreg,
    false,
  ];
}
