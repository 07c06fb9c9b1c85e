/**
 * New import records of an import sync (connector-api.md `POST /import-records`): quotes built on
 * the real record fixture, interventions, customers (`TiersCP`) and GED documents carrying a
 * small PDF or PNG, in the record XML and/or as `Fichier`. Most are imported (Etat 1), some
 * rejected with a log of several lines (Etat -1), a few left for the next sync (Etat 0). Every
 * text is in the connector's convention, as the connector sends it.
 */
import { encodeConnectorText, encodeRecordText } from '@synchro/config-xml';
import type { TEtat, TFile, TImportRecord } from '../api-types.ts';
import { connectorStamp, wallClockDate, wallClockIso } from '../connector-time.ts';
import {
  ARTICLES,
  CIVILITIES,
  CUSTOMERS,
  INTERVENTION_REPORTS,
  INTERVENTION_SUBJECTS,
  PHOTO_NAMES,
  PROSPECT_CITIES,
  PROSPECT_NAMES,
  TECHNICIANS,
  type Customer,
} from './catalogue.ts';
import { amount, euros, pickDevice, type Device, type GeneratorContext } from './context.ts';
import { DEVIS_HEADER_FIELDS, DEVIS_LINE_FIELDS } from './devis-fields.ts';
import { minimalPdf, minimalPng } from './files.ts';
import { recordXml, withValues, type XmlField } from './record-xml.ts';

export interface RecordOptions {
  count: number;
  /** The sync failed: nothing could be imported (Etat -1 with the reason). */
  failed?: boolean;
  /** Share rejected with a log (default 0.12). */
  errorRate?: number;
  /** Share left to import at the next sync (default 0.08). */
  pendingRate?: number;
}

/** One record before its outcome is decided. */
interface Draft {
  TypeEnreg: string;
  RefDoc: string;
  capturedMs: number;
  NumLigne: number;
  TypeElement: string;
  Enreg: string;
  Fichier?: TFile;
  /** What it is, for logs: `Devis XX_123 (3 lignes, 1 234,50 € HT)`. */
  summary: string;
  /** Reasons the ERP may reject it. */
  rejections: readonly string[];
  device: Device;
}

const CRLF = '\r\n';

function capturedAt(ctx: GeneratorContext): number {
  // Captured on the terminal during the last three hours, before the sync.
  return ctx.nowMs - ctx.rng.int(60, 3 * 3600) * 1000 - ctx.rng.int(0, 999);
}

function technicianOf(ctx: GeneratorContext, device: Device): string {
  return device.technicianId !== '' ? device.technicianId : ctx.rng.pick(TECHNICIANS);
}

function documentRef(ctx: GeneratorContext): string {
  return `XX_${ctx.rng.digits(12)}`;
}

function quote(ctx: GeneratorContext): Draft {
  const { rng, zone } = ctx;
  const device = pickDevice(ctx);
  const capturedMs = capturedAt(ctx);
  const customer = rng.pick(CUSTOMERS);
  const ref = documentRef(ctx);
  const lineCount = rng.int(1, 6);
  const vatSlots = new Map<number, { base: number; vat: number }>();
  const lines: XmlField[] = [];
  let totalHT = 0;
  let totalTVA = 0;
  for (let i = 1; i <= lineCount; i++) {
    const article = rng.pick(ARTICLES);
    const quantity = rng.int(1, 4);
    const net = quantity * article.price;
    const vat = (net * article.vat) / 100;
    totalHT += net;
    totalTVA += vat;
    const slot = vatSlots.get(article.vat) ?? { base: 0, vat: 0 };
    slot.base += net;
    slot.vat += vat;
    vatSlots.set(article.vat, slot);
    const lineId = `{${rng.uuid()}}`;
    lines.push([
      'Ligne',
      withValues(DEVIS_LINE_FIELDS, {
        Ligne_DateCreation: connectorStamp(capturedMs - (lineCount - i) * 1500, zone),
        Ligne_Code: lineId,
        Ligne_IDInterne: lineId,
        Ligne_Designation: article.designation,
        Ligne_idInterneDocument: ref,
        Ligne_NumeroLigne: String(i),
        Ligne_CodeArticle: article.code,
        Ligne_IDInerneArticle: article.code,
        Ligne_Quantite: String(quantity),
        Ligne_PrixVenteBrutHT: amount(article.price),
        Ligne_PrixRevient: amount(article.price * 0.6),
        Ligne_TauxTVA: amount(article.vat),
        Ligne_MontantTva: amount(vat),
        Ligne_MontantNetHT: amount(net),
        Ligne_MontantNetTTC: amount(net + vat),
      }),
    ]);
  }
  const vatFields: Record<string, string> = {};
  [...vatSlots.entries()].slice(0, 5).forEach(([rate, slot], i) => {
    vatFields[`IDInerneTVA${i + 1}`] = rate === 0 ? '' : `C${String(rate).replace('.', '')}`;
    vatFields[`TauxTVA${i + 1}`] = amount(rate);
    vatFields[`MontantTVA${i + 1}`] = amount(slot.vat);
    vatFields[`BaseHT${i + 1}`] = amount(slot.base);
  });
  const ttc = totalHT + totalTVA;
  const fields = withValues(DEVIS_HEADER_FIELDS, {
    DateCreation: connectorStamp(capturedMs - lineCount * 1500 - 2000, zone),
    IDInterne: ref,
    Code: ref,
    IDInerneTiers: customer.code,
    CodeTiers: customer.code,
    FacturationNom: customer.name,
    NomTiers: customer.name,
    LivraisonNom: customer.name,
    Facturation_Adresse1: customer.address,
    Livraison_Adresse1: customer.address,
    Facturation_CP: customer.postcode,
    Livraison_CP: customer.postcode,
    Facturation_Ville: customer.city,
    Livraison_Ville: customer.city,
    Facturation_Contact_Nom: customer.contact,
    Facturation_Contact_Tel: customer.phone,
    Livraison_Contact_Tel: customer.phone,
    Facturation_Contact_Mail: customer.mail,
    IDInterneCollaborateur: technicianOf(ctx, device),
    MontantBrutHT: amount(totalHT),
    MontantNetHT: amount(totalHT),
    MontantNetNetHT: amount(totalHT),
    MontantNetNetTTC: amount(ttc),
    SoldeDu: amount(ttc),
    NetAPayer: amount(ttc),
    PrixRevient: amount(totalHT * 0.6),
    Document_Date: wallClockDate(capturedMs, zone),
    ...vatFields,
    Lignes: lines,
  });
  return {
    TypeEnreg: 'DocumentDEVIS',
    RefDoc: ref,
    capturedMs,
    NumLigne: lineCount,
    TypeElement: 'Création',
    Enreg: recordXml(
      { exportedAt: connectorStamp(capturedMs, zone), device: device.id, table: 'documentdevis', event: 'A' },
      fields,
    ),
    summary: `Devis ${ref} pour ${customer.name} (${lineCount} ligne${lineCount > 1 ? 's' : ''}, ${euros(totalHT)} HT)`,
    rejections: [
      `L'article ${rng.pick(ARTICLES).code} est en sommeil dans l'ERP.`,
      `Le client ${customer.code} est bloqué (encours dépassé).`,
      `Le taux de TVA ${rng.pick(ARTICLES).vat} % n'existe pas dans le dossier.`,
    ],
    device,
  };
}

function intervention(ctx: GeneratorContext): Draft {
  const { rng, zone } = ctx;
  const device = pickDevice(ctx);
  const capturedMs = capturedAt(ctx);
  const customer = rng.pick(CUSTOMERS);
  const code = `INT${rng.digits(6)}`;
  const minutes = rng.int(3, 24) * 5;
  const startMs = capturedMs - minutes * 60_000;
  const subject = rng.pick(INTERVENTION_SUBJECTS);
  const done = rng.chance(0.8);
  const fields: XmlField[] = [
    ['DateCreation', connectorStamp(startMs, zone)],
    ['DateModification', connectorStamp(capturedMs, zone)],
    ['IDInterne', code],
    ['Code', code],
    ['IDInterneTiers', customer.code],
    ['CodeTiers', customer.code],
    ['NomTiers', customer.name],
    ['Adresse1', customer.address],
    ['CP', customer.postcode],
    ['Ville', customer.city],
    ['IDInterneTechnicien', technicianOf(ctx, device)],
    ['DateDebut', connectorStamp(startMs, zone)],
    ['DateFin', connectorStamp(capturedMs, zone)],
    ['DureeMinutes', String(minutes)],
    ['Objet', subject],
    ['Rapport', rng.pick(INTERVENTION_REPORTS)],
    ['Statut', done ? 'Terminée' : 'En cours'],
    ['NomSignataire', done ? customer.contact : ''],
    ['Signature', ''],
  ];
  return {
    TypeEnreg: 'Intervention',
    RefDoc: code,
    capturedMs,
    NumLigne: 1,
    TypeElement: rng.chance(0.7) ? 'Création' : 'Modification',
    Enreg: recordXml(
      { exportedAt: connectorStamp(capturedMs, zone), device: device.id, table: 'intervention', event: 'A' },
      fields,
    ),
    summary: `Intervention ${code} chez ${customer.name} (${subject})`,
    rejections: [
      `Le technicien ${technicianOf(ctx, device)} n'a pas d'agenda dans l'ERP.`,
      `L'affaire liée à l'intervention ${code} est clôturée.`,
    ],
    device,
  };
}

function customerRecord(ctx: GeneratorContext): Draft {
  const { rng, zone } = ctx;
  const device = pickDevice(ctx);
  const capturedMs = capturedAt(ctx);
  const prospect = rng.chance(0.5);
  const existing: Customer | undefined = prospect ? undefined : rng.pick(CUSTOMERS);
  const [postcode, city] = rng.pick(PROSPECT_CITIES);
  const code = existing?.code ?? `CL${rng.digits(5)}`;
  const name = existing?.name ?? rng.pick(PROSPECT_NAMES);
  const fields: XmlField[] = [
    ['DateCreation', connectorStamp(capturedMs, zone)],
    ['IDInterne', code],
    ['Code', code],
    ['Type', prospect ? 'Prospect' : 'Client'],
    ['Civilite', rng.pick(CIVILITIES)],
    ['Nom', name],
    ['Adresse1', existing?.address ?? `${rng.int(1, 90)} rue de la République`],
    ['CP', existing?.postcode ?? postcode],
    ['Ville', existing?.city ?? city],
    ['Pays', 'France'],
    ['Tel', existing?.phone ?? `04 ${rng.digits(2)} ${rng.digits(2)} ${rng.digits(2)} ${rng.digits(2)}`],
    ['Mail', existing?.mail ?? ''],
    ['Siret', prospect ? '' : rng.digits(14)],
    ['IDInterneCollaborateur', technicianOf(ctx, device)],
  ];
  return {
    TypeEnreg: 'TiersCP',
    RefDoc: code,
    capturedMs,
    NumLigne: 1,
    TypeElement: existing ? 'Modification' : 'Création',
    Enreg: recordXml(
      {
        exportedAt: connectorStamp(capturedMs, zone),
        device: device.id,
        table: 'tiers',
        event: existing ? 'M' : 'A',
      },
      fields,
    ),
    summary: `${prospect ? 'Prospect' : 'Client'} ${code} ${name}`,
    rejections: [
      `Le code ${code} existe déjà pour un autre tiers.`,
      'Le numéro SIRET est invalide (clé de contrôle).',
    ],
    device,
  };
}

function gedDocument(ctx: GeneratorContext): Draft {
  const { rng, zone } = ctx;
  const device = pickDevice(ctx);
  const capturedMs = capturedAt(ctx);
  const linkedRef = rng.chance(0.5) ? documentRef(ctx) : `INT${rng.digits(6)}`;
  const isPdf = rng.chance(0.5);
  const customer = rng.pick(CUSTOMERS);
  const name = isPdf
    ? `Bon d'intervention ${linkedRef}.pdf`
    : `${rng.pick(PHOTO_NAMES)} ${rng.int(1, 9)}.png`;
  const file = isPdf
    ? minimalPdf(`Bon d'intervention ${linkedRef}`, [
        `Client : ${customer.name}`,
        `${customer.address}, ${customer.postcode} ${customer.city}`,
        `Date : ${wallClockIso(capturedMs, zone).slice(0, 10).split('-').reverse().join('/')}`,
        'Travaux réalisés conformément au devis.',
      ])
    : minimalPng(rng);
  const content = file.toString('base64');
  // In the record XML, as a Fichier, or both.
  const where = rng.pick(['xml', 'xml', 'both', 'fichier'] as const);
  const fields: XmlField[] = [
    ['DateCreation', connectorStamp(capturedMs, zone)],
    ['IDInterne', `{${rng.uuid()}}`],
    ['TypeDocumentLie', linkedRef.startsWith('INT') ? 'INTERVENTION' : 'DEVIS'],
    ['IDInterneDocumentLie', linkedRef],
    ['Libelle', isPdf ? 'Bon signé' : 'Photo'],
    ['NomDocument', name],
    ['Taille', String(file.length)],
    ['BinaireDocument', where === 'fichier' ? '' : content],
  ];
  const draft: Draft = {
    TypeEnreg: 'GED',
    RefDoc: linkedRef,
    capturedMs,
    NumLigne: 1,
    TypeElement: 'Création',
    Enreg: recordXml(
      { exportedAt: connectorStamp(capturedMs, zone), device: device.id, table: 'ged', event: 'A' },
      fields,
    ),
    summary: `Document ${name} (${file.length} octets) lié à ${linkedRef}`,
    rejections: [
      `Le document ${linkedRef} n'existe pas dans l'ERP.`,
      'Le dossier de la GED est inaccessible en écriture.',
    ],
    device,
  };
  if (where !== 'xml') draft.Fichier = { Nom: name, Contenu: content };
  return draft;
}

const KINDS = [
  { weight: 40, make: quote, id: 'DEV' },
  { weight: 25, make: intervention, id: 'INT' },
  { weight: 15, make: customerRecord, id: 'TIE' },
  { weight: 20, make: gedDocument, id: 'GED' },
] as const;

function pickKind(ctx: GeneratorContext): (typeof KINDS)[number] {
  let roll = ctx.rng.int(1, 100);
  for (const kind of KINDS) {
    roll -= kind.weight;
    if (roll <= 0) return kind;
  }
  return KINDS[0];
}

/** A log of several lines, as the connector writes it (CRLF). */
export function importLog(lines: readonly string[]): string {
  return encodeConnectorText(lines.join(CRLF));
}

export function generateImportRecords(ctx: GeneratorContext, options: RecordOptions): TImportRecord[] {
  const errorRate = options.errorRate ?? 0.12;
  const pendingRate = options.pendingRate ?? 0.08;
  const out: TImportRecord[] = [];
  for (let i = 0; i < options.count; i++) {
    const kind = pickKind(ctx);
    const draft = kind.make(ctx);
    const roll = ctx.rng.next();
    let Etat: TEtat;
    let log: string[];
    if (options.failed) {
      Etat = -1;
      log = [
        `Import de ${draft.summary}`,
        'Connexion à la base de données impossible.',
        'Import annulé : le document sera à relancer.',
      ];
    } else if (roll < errorRate) {
      Etat = -1;
      log = [`Import de ${draft.summary}`, `Erreur : ${ctx.rng.pick(draft.rejections)}`, 'Import annulé.'];
    } else if (roll < errorRate + pendingRate) {
      Etat = 0;
      log = [];
    } else {
      Etat = 1;
      log = [`Import de ${draft.summary}`, `Terminal : ${draft.device.name}`, 'Import terminé sans erreur.'];
    }
    const record: TImportRecord = {
      IDInterne: ctx.ids.importId(kind.id),
      TypeEnreg: draft.TypeEnreg,
      RefDoc: encodeConnectorText(draft.RefDoc),
      DateHeure: wallClockIso(draft.capturedMs, ctx.zone),
      NumLigne: draft.NumLigne,
      TypeElement: encodeConnectorText(draft.TypeElement),
      Etat,
      Enreg: encodeRecordText(draft.Enreg),
    };
    if (log.length > 0) record.Log = importLog(log);
    if (draft.Fichier)
      record.Fichier = { Nom: encodeConnectorText(draft.Fichier.Nom), Contenu: draft.Fichier.Contenu };
    out.push(record);
  }
  return out;
}
