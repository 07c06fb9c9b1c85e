import { z } from 'zod';

/**
 * Typed views of the ConfigConnecteur sections (what the server sends the browser as JSON, every
 * secret replaced by SECRET_PLACEHOLDER) and the save payloads of spec §7. The configuration
 * engine (`@synchro/config-xml`) produces the views and validates the payloads with these schemas.
 *
 * Payload schemas accept the loose forms the legacy console sent (`0`/`1`, `'0'`/`'1'` or booleans
 * for switches, numbers as strings) and output one normal form (`z.output`): that normal form is
 * what a re-read of the saved document gives back.
 */

// ---------------------------------------------------------------------------------------------
// Building blocks

const frenchErrors = z.locales.fr().localeError;

/** One invalid field of a payload: its path (`sources.0.MDP`) and a French message. */
export interface TPayloadIssue {
  path: string;
  message: string;
}

/**
 * Validates a payload with French messages (a schema's own messages first, zod's French locale
 * for the rest). Returns the normal form, or the list of invalid fields.
 */
export function parsePayload<T extends z.ZodType>(
  schema: T,
  data: unknown,
): { ok: true; value: z.output<T> } | { ok: false; issues: TPayloadIssue[] } {
  const r = schema.safeParse(data, { error: frenchErrors });
  if (r.success) return { ok: true, value: r.data };
  return {
    ok: false,
    issues: r.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
  };
}

/** True when the string holds only characters an XML 1.0 document can carry. */
export function isXmlSafeText(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20) {
      if (c !== 9 && c !== 10 && c !== 13) return false;
    } else if (c >= 0xd800) {
      if (c <= 0xdbff) {
        const next = value.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) i++;
        else return false;
      } else if (c <= 0xdfff || c === 0xfffe || c === 0xffff) return false;
    }
  }
  return true;
}

const XML_TEXT_MESSAGE = 'La valeur contient un caractère non autorisé';

/** A text value of the configuration, at most `max` characters, no character XML refuses. */
export function zConfigText(max = 1000) {
  return z
    .string({ error: 'Texte attendu' })
    .max(max, `Au plus ${max} caractères`)
    .refine(isXmlSafeText, XML_TEXT_MESSAGE);
}

/**
 * A text value shown in a one-line input (identifiers, paths, names). Line breaks are accepted all
 * the same: a value stored with one must be able to go back unchanged.
 */
export function zConfigLine(max = 500) {
  return zConfigText(max);
}

/** A switch: true/false, 1/0 or '1'/'0' ('true'/'false' too); outputs a boolean. */
export const ZFlag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false'])], {
    error: 'Valeur oui/non attendue (true, false, 1 ou 0)',
  })
  .transform((v) => v === true || v === 1 || v === '1' || v === 'true');

// ---------------------------------------------------------------------------------------------
// Info, DerSynchro

export const ZConfigInfo = z.object({
  /** Info/Exe: Windows path of the connector. */
  exe: z.string(),
  /** Info/Serial. */
  serial: z.string(),
  /** Info/NuxiAutomateInstall: 1 installed, 0 not installed, -1 update required; null when absent. */
  automateInstall: z.number().int().nullable(),
  /** Info/NuxiAutomateLibelle, e.g. 'Version : 6.11.23.9'. */
  automateLabel: z.string(),
  /** Info/DateMAJConfig as stored (digits, YYYYMMDDHHMMSSmmm, connector's wall-clock time); null when absent or not digits. */
  configUpdatedAt: z.string().nullable(),
  /** Info/VersionConnecteur; null when absent or empty. */
  connectorVersion: z.string().nullable(),
});
export type TConfigInfo = z.infer<typeof ZConfigInfo>;

/** What DerSynchro says of the last synchronisation besides its time (also in the dashboard view). */
export const ZLastSyncFigures = z.object({
  /** DerSynchro/TypeDeSync, decoded (e.g. 'Complète'); null when absent or empty. */
  type: z.string().nullable(),
  /** DerSynchro/Duree (e.g. '00:04:11'); null when absent or empty. */
  duration: z.string().nullable(),
  durationAlert: z.boolean(),
  /** DerSynchro/NbEnreg. */
  records: z.number().nullable(),
  /** DerSynchro/Vitesse, records per minute. */
  speed: z.number().nullable(),
  /** DerSynchro/Taille as written (e.g. '3,721 Mo'). */
  volume: z.string().nullable(),
  volumeAlert: z.boolean(),
});

export const ZLastSyncInfo = z.object({
  /** DerSynchro/DateHeure as stored (digits, YYYYMMDDHHMM[SSmmm]); null when absent or not digits. */
  dateHeure: z.string().nullable(),
  ...ZLastSyncFigures.shape,
});
export type TLastSyncInfo = z.infer<typeof ZLastSyncInfo>;

// ---------------------------------------------------------------------------------------------
// Sources (Base de données source)

export { PROVIDER_OPTIONS, CONFIG_BLOCK_COUNT } from './constants.ts';

export const ZSourceView = z.object({
  Provider: z.string(),
  Serveur: z.string(),
  Nom_BDD: z.string(),
  Lecture_Seule: z.boolean(),
  Utilisateur: z.string(),
  /** SECRET_PLACEHOLDER when a password is stored, '' when none. */
  MDP: z.string(),
  /** Written by the connector: 0 = connection failed; null when absent. */
  Status: z.number().int().nullable(),
  StatusLibelle: z.string(),
});
export type TSourceView = z.infer<typeof ZSourceView>;

export const ZSourcesView = z.object({ sources: z.array(ZSourceView) });
export type TSourcesView = z.infer<typeof ZSourcesView>;

export const ZSourceInput = z.object({
  Provider: zConfigLine(200),
  Serveur: zConfigLine(500),
  Nom_BDD: zConfigLine(500),
  Lecture_Seule: ZFlag,
  Utilisateur: zConfigLine(500),
  /** SECRET_PLACEHOLDER keeps the stored password. */
  MDP: zConfigLine(500),
});
/** POST /api/database/sources. Block i of the payload is written to the i-th Source. */
export const ZSourcesPayload = z.object({
  sources: z.array(ZSourceInput).max(16, 'Au plus 16 sources'),
});
export type TSourcesPayload = z.input<typeof ZSourcesPayload>;
export type TSourcesPayloadNormal = z.output<typeof ZSourcesPayload>;

// ---------------------------------------------------------------------------------------------
// Liaisons externes

export const ZLiaisonView = z.object({
  Logiciel: z.string(),
  Config: z.string(),
  Utilisateur: z.string(),
  /** SECRET_PLACEHOLDER when a password is stored, '' when none. */
  MDP: z.string(),
});
export type TLiaisonView = z.infer<typeof ZLiaisonView>;

export const ZExternalLinksView = z.object({
  Dossier_Import: z.string(),
  Dossier_Export: z.string(),
  Liaisons: z.array(ZLiaisonView),
});
export type TExternalLinksView = z.infer<typeof ZExternalLinksView>;

/** POST /api/database/external-links. Liaison i of the payload is written to the i-th Liaison. */
export const ZExternalLinksPayload = z.object({
  Dossier_Import: zConfigLine(1000),
  Dossier_Export: zConfigLine(1000),
  Liaisons: z
    .array(
      z.object({
        Logiciel: zConfigLine(1000),
        Config: zConfigLine(1000),
        Utilisateur: zConfigLine(500),
        MDP: zConfigLine(500),
      }),
    )
    .max(16, 'Au plus 16 liaisons'),
});
export type TExternalLinksPayload = z.input<typeof ZExternalLinksPayload>;
export type TExternalLinksPayloadNormal = z.output<typeof ZExternalLinksPayload>;

// ---------------------------------------------------------------------------------------------
// Agendas externes

/** Value of a free (unassigned) employee or agenda in a mapping. */
export const LIBRE_ID = '-1';

export const ZAgendaType = z.enum(['', 'Google', 'Microsoft'], {
  error: "Type d'agenda attendu : '' (pas d'agenda externe), 'Google' ou 'Microsoft'",
});

export const ZCalendarMapping = z.object({
  /** IDInterne of a salarié or technicien; LIBRE_ID ('-1') when free. */
  ID_Salarie: z.string(),
  /** ID of an agenda; LIBRE_ID ('-1') when free. */
  ID_Agenda: z.string(),
});
export type TCalendarMapping = z.infer<typeof ZCalendarMapping>;

export const ZEmployee = z.object({ IDInterne: z.string(), Nom: z.string(), Prenom: z.string() });
export type TEmployee = z.infer<typeof ZEmployee>;

export const ZCalendarEmployee = ZEmployee.extend({ kind: z.enum(['salarie', 'technicien']) });
export type TCalendarEmployee = z.infer<typeof ZCalendarEmployee>;

export const ZAgendaItem = z.object({ ID: z.string(), Libelle: z.string() });
export type TAgendaItem = z.infer<typeof ZAgendaItem>;

export const ZExternalCalendarsView = z.object({
  agendaType: z.string(),
  mappings: z.array(ZCalendarMapping),
  /** Salariés then techniciens (Data lists). */
  employees: z.array(ZCalendarEmployee),
  agendas: z.array(ZAgendaItem),
});
export type TExternalCalendarsView = z.infer<typeof ZExternalCalendarsView>;

const zMappingId = zConfigLine(500).transform((v) => (v.trim() === '' ? LIBRE_ID : v));

/** POST /api/database/external-calendars. The mappings replace the Correspondance rows. '' means free. */
export const ZExternalCalendarsPayload = z.object({
  agendaType: ZAgendaType,
  mappings: z
    .array(z.object({ ID_Salarie: zMappingId, ID_Agenda: zMappingId }))
    .max(2000, 'Au plus 2000 lignes'),
});
export type TExternalCalendarsPayload = z.input<typeof ZExternalCalendarsPayload>;
export type TExternalCalendarsPayloadNormal = z.output<typeof ZExternalCalendarsPayload>;

// ---------------------------------------------------------------------------------------------
// Data lists

export const ZDepot = z.object({ IDInterne: z.string(), Code: z.string(), Libelle: z.string() });
export type TDepot = z.infer<typeof ZDepot>;

export const ZSubFamily = z.object({
  /** `family|sub`. */
  id: z.string(),
  libelle: z.string(),
});
export const ZFamily = z.object({
  /** `family|` (trailing bar: the whole family). */
  id: z.string(),
  libelle: z.string(),
  subFamilies: z.array(ZSubFamily),
});
export type TFamily = z.infer<typeof ZFamily>;

export const ZDataLists = z.object({
  salaries: z.array(ZEmployee),
  techniciens: z.array(ZEmployee),
  agendas: z.array(ZAgendaItem),
  depots: z.array(ZDepot),
  famillesArticles: z.array(ZFamily),
  famillesClients: z.array(ZFamily),
  famillesFournisseurs: z.array(ZFamily),
});
export type TDataLists = z.infer<typeof ZDataLists>;

export const ZGlobalAuthorization = z.object({ ID: z.string(), Libelle: z.string() });
export const ZGlobalAuthorizations = z.object({
  authorizations: z.array(ZGlobalAuthorization),
  /** 'data' when read from Data/Autorisations, 'terminals' when gathered from the terminals. */
  from: z.enum(['data', 'terminals']),
});
export type TGlobalAuthorizations = z.infer<typeof ZGlobalAuthorizations>;

// ---------------------------------------------------------------------------------------------
// Données à synchroniser

export const HISTO_MAX = 10000;

export const ZSyncDataItem = z.object({
  Reference: z.string(),
  Complete: z.boolean(),
  Libelle: z.string(),
  Histo: z.number().int(),
  CanHaveHistory: z.boolean(),
});
export type TSyncDataItem = z.infer<typeof ZSyncDataItem>;
export const ZSyncDataView = z.object({ syncData: z.array(ZSyncDataItem) });
export type TSyncDataView = z.infer<typeof ZSyncDataView>;

const zHisto = z
  .union([z.number(), z.string().regex(/^\d*$/, 'Historique : chiffres uniquement')], {
    error: 'Historique : nombre attendu',
  })
  .transform((v) => (v === '' ? 0 : Number(v)))
  .pipe(
    z
      .number()
      .int('Historique : nombre entier attendu')
      .min(0, 'Historique : 0 au minimum')
      .max(HISTO_MAX, `Historique : ${HISTO_MAX} au maximum`),
  );

/**
 * POST /api/sync-data/save. Each item updates the Donnee of the same Reference (Complete, Histo;
 * the Libelle belongs to the connector and is written only for a Reference not yet in the list).
 */
export const ZSyncDataPayload = z.object({
  syncData: z
    .array(
      z.object({
        Reference: zConfigLine(200).refine((v) => v.trim() !== '', 'La référence est obligatoire'),
        Complete: ZFlag,
        Libelle: zConfigText(500),
        Histo: zHisto,
        CanHaveHistory: z.boolean().optional(),
      }),
    )
    .max(2000, 'Au plus 2000 données'),
});
export type TSyncDataPayload = z.input<typeof ZSyncDataPayload>;
export type TSyncDataPayloadNormal = z.output<typeof ZSyncDataPayload>;

// ---------------------------------------------------------------------------------------------
// Exclusions

export const ZExclusionType = z.enum(['ItemFamily', 'CustomerFamily', 'SupplierFamily'], {
  error: "Type d'exclusion attendu : ItemFamily, CustomerFamily ou SupplierFamily",
});
export type TExclusionType = z.infer<typeof ZExclusionType>;

export const ZExclusion = z.object({
  /** `family|` for a whole family, `family|sub` for a sub-family. */
  id: z.string(),
  libelle: z.string(),
  type: ZExclusionType,
});
export type TExclusion = z.infer<typeof ZExclusion>;
export const ZExclusionsView = z.object({ exclusions: z.array(ZExclusion) });
export type TExclusionsView = z.infer<typeof ZExclusionsView>;

/** POST /api/database/exclusions: the whole list of the three family types (NuxiSavOnLine is kept). */
export const ZExclusionsPayload = z.object({
  exclusions: z
    .array(
      z.object({
        id: zConfigLine(400)
          .refine(
            (v) => /^[^|]+(\|[^|]*)?$/.test(v.trim()),
            "Identifiant attendu : 'famille|' ou 'famille|sous-famille'",
          )
          .transform((v) => {
            const t = v.trim();
            return t.includes('|') ? t : `${t}|`;
          }),
        libelle: zConfigText(1000),
        type: ZExclusionType,
      }),
    )
    .max(100000, 'Trop d’exclusions'),
});
export type TExclusionsPayload = z.input<typeof ZExclusionsPayload>;
export type TExclusionsPayloadNormal = z.output<typeof ZExclusionsPayload>;

// ---------------------------------------------------------------------------------------------
// Complément

/** Drive pour la GED: 'none' (Pas de Drive, stored empty), 'google', 'onedrive'. */
export const ZDriveType = z.enum(['none', 'google', 'onedrive'], {
  error: "Type de drive attendu : 'none', 'google' ou 'onedrive'",
});

export const ZComplementView = z.object({
  googleApiKey: z.string(),
  /** 'none' when nothing is stored; otherwise the stored value (normally 'google' or 'onedrive'). */
  driveType: z.string(),
  mailRapport: z.object({
    envoyerRapport: z.boolean(),
    mailDestinataire: z.string(),
    notifErr: z.boolean(),
    notifInf: z.boolean(),
    notifImp: z.boolean(),
    globaliserEnregImport: z.boolean(),
  }),
  /** ScriptComplementaire with LF line ends. */
  scriptComplementaire: z.string(),
});
export type TComplementView = z.infer<typeof ZComplementView>;

/** POST /api/database/complement. The customer-area login (EspaceClient) is never part of it. */
export const ZComplementPayload = z.object({
  googleApiKey: zConfigLine(500),
  driveType: z
    .union([ZDriveType, z.literal('')], { error: "Type de drive attendu : 'none', 'google' ou 'onedrive'" })
    .transform((v) => (v === '' ? 'none' : v)),
  mailRapport: z.object({
    envoyerRapport: ZFlag,
    mailDestinataire: zConfigLine(1000),
    notifErr: ZFlag,
    notifInf: ZFlag,
    notifImp: ZFlag,
    globaliserEnregImport: ZFlag,
  }),
  /** Line ends are normalised to LF (the document stores CRLF, as the connector writes it). */
  scriptComplementaire: zConfigText(200000).transform((v) => v.replace(/\r\n?/g, '\n')),
});
export type TComplementPayload = z.input<typeof ZComplementPayload>;
export type TComplementPayloadNormal = z.output<typeof ZComplementPayload>;

// ---------------------------------------------------------------------------------------------
// Planification

export const ZPlanningType = z.enum(['C', 'R', 'I'], { error: 'Type de synchro attendu : C, R ou I' });

export const ZPlanning = z.object({
  /** 1 Monday … 7 Sunday, 8 every day. */
  day: z.number().int(),
  /** HH:MM, wall-clock time of the chosen zone. */
  time: z.string(),
  type: z.string(),
});
export type TPlanning = z.infer<typeof ZPlanning>;

export const ZPlanificationsView = z.object({
  /** Planifications/FuseauHoraire (e.g. 'Europe/Paris'); '' when absent. */
  timeZone: z.string(),
  /** Planifications/FuseauHoraireValeur (e.g. '+01:00'); '' when absent. */
  timeZoneOffset: z.string(),
  plannings: z.array(ZPlanning),
});
export type TPlanificationsView = z.infer<typeof ZPlanificationsView>;

/** Offsets accepted for the time zone: +hh:mm / -hh:mm, or GMT+n / UTC-n (normalised to ±hh:mm). */
export function normaliseUtcOffset(value: string): string | null {
  const v = value.trim();
  let m = /^([+-])(\d{1,2}):?(\d{2})$/.exec(v);
  if (m) {
    const h = Number(m[2]);
    const min = Number(m[3]);
    if (h > 14 || min > 59) return null;
    return `${m[1]}${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`;
  }
  m = /^(?:GMT|UTC)\s*(?:([+-])(\d{1,2})(?::?(\d{2}))?)?$/i.exec(v);
  if (m) {
    if (!m[1]) return '+00:00';
    const h = Number(m[2]);
    const min = Number(m[3] ?? '0');
    if (h > 14 || min > 59) return null;
    return `${m[1]}${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`;
  }
  return null;
}

/**
 * POST /api/plannings. `plannings` replace the Planning entries; `timeZone`, when sent, sets
 * FuseauHoraireValeur (`value`, an offset such as '+01:00' or 'GMT+1', stored as ±hh:mm) and
 * FuseauHoraire (`label`, e.g. 'Europe/Paris'). `xmlInfo` is what the legacy console sent; the
 * configuration does not use it.
 */
export const ZPlanificationsPayload = z.object({
  plannings: z
    .array(
      z.object({
        day: z.coerce
          .number({ error: 'Jour attendu : 1 (lundi) à 7 (dimanche), 8 (tous les jours)' })
          .int('Jour attendu : 1 (lundi) à 7 (dimanche), 8 (tous les jours)')
          .min(1, 'Jour attendu : 1 (lundi) à 7 (dimanche), 8 (tous les jours)')
          .max(8, 'Jour attendu : 1 (lundi) à 7 (dimanche), 8 (tous les jours)'),
        time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Heure attendue au format HH:MM (00:00 à 23:59)'),
        type: ZPlanningType,
      }),
    )
    .max(500, 'Au plus 500 planifications'),
  xmlInfo: z.object({ exe: z.string().optional(), serial: z.string().optional() }).optional(),
  timeZone: z
    .object({
      value: z
        .string()
        .refine((v) => normaliseUtcOffset(v) !== null, 'Décalage horaire attendu : +hh:mm, -hh:mm ou GMT+n')
        .transform((v) => normaliseUtcOffset(v) as string),
      label: zConfigLine(100).refine((v) => v.trim() !== '', 'Le fuseau horaire est obligatoire'),
    })
    .optional(),
});
export type TPlanificationsPayload = z.input<typeof ZPlanificationsPayload>;
export type TPlanificationsPayloadNormal = z.output<typeof ZPlanificationsPayload>;

// ---------------------------------------------------------------------------------------------
// Terminaux

/** Name shown for a terminal without a name, or whose name another terminal already has. */
export const TERMINAL_FREE_NAME = 'Libre';

export const ZAutorise = z.union([z.literal(-1), z.literal(0), z.literal(1)]);

export const ZTerminalAuthorization = z.object({
  ID: z.string(),
  Libelle: z.string(),
  /** 1 allowed, 0 forbidden, -1 invisible. */
  Autorise: ZAutorise,
});
export type TTerminalAuthorization = z.infer<typeof ZTerminalAuthorization>;

export const ZCommercial = z.object({ IDInterne: z.string(), Libelle: z.string() });
export type TCommercial = z.infer<typeof ZCommercial>;

export const ZTerminalView = z.object({
  /** 0-based position of the Terminal element in Terminaux (the terminalIndex of saves). */
  xmlIndex: z.number().int(),
  /** Name, or TERMINAL_FREE_NAME when empty or already taken by an earlier terminal. */
  Nom: z.string(),
  ID_Tablette: z.string(),
  ID_Smartphone: z.string(),
  /** Has a tablet or a smartphone id. */
  declared: z.boolean(),
  technicienId: z.string(),
  depotId: z.string(),
  commerciaux: z.array(ZCommercial),
  /** The global list, each with this terminal's value (0 when the terminal has none). */
  authorizations: z.array(ZTerminalAuthorization),
});
export type TTerminalView = z.infer<typeof ZTerminalView>;
export const ZTerminalsView = z.object({ terminals: z.array(ZTerminalView) });
export type TTerminalsView = z.infer<typeof ZTerminalsView>;

const zOptionalId = z
  .union([zConfigLine(200), z.null()])
  .optional()
  .transform((v) => (v == null || v.trim() === '' || v === 'none' ? '' : v.trim()));

export const ZTerminalInput = z.object({
  Nom: zConfigLine(200),
  ID_Tablette: zConfigLine(200),
  ID_Smartphone: zConfigLine(200),
  /** '' (or 'none') for no default technician. */
  technicienId: zOptionalId,
  /** '' (or 'none') for no default depot. */
  depotId: zOptionalId,
  commerciaux: z
    .array(
      z.object({
        IDInterne: zConfigLine(200).refine((v) => v.trim() !== '', 'Identifiant de commercial vide'),
        Libelle: zConfigText(500),
      }),
    )
    .max(5000, 'Trop de commerciaux'),
  authorizations: z
    .array(
      z.object({
        ID: zConfigLine(20).refine((v) => v.trim() !== '', "Identifiant d'autorisation vide"),
        Autorise: z
          .union([z.number(), z.enum(['-1', '0', '1'])], { error: 'Autorisation attendue : 1, 0 ou -1' })
          .transform(Number)
          .pipe(
            z.union([z.literal(-1), z.literal(0), z.literal(1)], {
              error: 'Autorisation attendue : 1, 0 ou -1',
            }),
          ),
        Libelle: zConfigText(500),
      }),
    )
    .max(1000, 'Trop d’autorisations'),
});
export type TTerminalInput = z.input<typeof ZTerminalInput>;
export type TTerminalInputNormal = z.output<typeof ZTerminalInput>;

/** PATCH /api/config/terminal. */
export const ZTerminalPayload = z.object({
  terminalIndex: z.number({ error: 'Impossible de déterminer le terminal à mettre à jour' }).int().min(0),
  terminal: ZTerminalInput,
});
export type TTerminalPayload = z.input<typeof ZTerminalPayload>;
