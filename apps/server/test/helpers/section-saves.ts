import { CONFIG_SECTIONS, type TSaveableSectionKey } from '@synchro/contracts';
import { parseConfig } from '@synchro/config-xml';
import { SECTION_VIEWS } from '../../src/features/configuration/sections.ts';

/**
 * One save of each section of the registry (CONFIG_SECTIONS) that writes a value of its own: the
 * n-th save carries a value no other save carries, and `read` finds that value again in a view
 * of the section, so a test can tell which save a stored version holds (docs/reliability.md).
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- the views are handled as JSON */
type View = any;

export interface SectionSave {
  key: TSaveableSectionKey;
  /** What this save owns: its section, or one terminal (a stale If-Match is compared on it). */
  scope: string;
  getPath: string;
  method: 'POST' | 'PATCH';
  path: string;
  payload: (view: View, n: number) => unknown;
  value: (n: number) => string;
  /** The value this save's field holds in a view of its section. */
  read: (view: View) => string;
}

const route = (key: TSaveableSectionKey) => {
  const entry = CONFIG_SECTIONS[key];
  if (!entry.save) throw new Error(`${key} has no save`);
  return { key, getPath: entry.getPath, method: entry.save.method, path: entry.save.path };
};

const two = (n: number) => String(n).padStart(2, '0');
/** A distinct time for n < 1440. */
const timeOf = (n: number) => `${two(Math.floor(n / 60) % 24)}:${two(n % 60)}`;

const SECTIONS: SectionSave[] = [
  {
    ...route('sources'),
    scope: 'sources',
    // A new server takes its password typed again (secret-destinations).
    payload: (v, n) => ({
      sources: v.sources.map((s: View, i: number) =>
        i === 0 ? { ...s, Serveur: `SRV-${n}`, MDP: `mdp-${n}` } : s,
      ),
    }),
    value: (n) => `SRV-${n}`,
    read: (v) => v.sources[0].Serveur,
  },
  {
    ...route('externalLinks'),
    scope: 'externalLinks',
    payload: (v, n) => ({
      Dossier_Import: `C:\\Import é ${n}`,
      Dossier_Export: v.Dossier_Export,
      Liaisons: v.Liaisons,
    }),
    value: (n) => `C:\\Import é ${n}`,
    read: (v) => v.Dossier_Import,
  },
  {
    ...route('externalCalendars'),
    scope: 'externalCalendars',
    payload: (_v, n) => ({
      agendaType: 'Google',
      mappings: [{ ID_Salarie: '-1', ID_Agenda: `agenda-${n}` }],
    }),
    value: (n) => `agenda-${n}`,
    read: (v) => v.mappings[0]?.ID_Agenda ?? '',
  },
  {
    ...route('syncData'),
    scope: 'syncData',
    payload: (v, n) => ({
      syncData: v.syncData.map((d: View, i: number) => (i === 0 ? { ...d, Histo: n } : d)),
    }),
    value: (n) => String(n),
    read: (v) => String(v.syncData[0].Histo),
  },
  {
    ...route('exclusions'),
    scope: 'exclusions',
    // The list keeps one marker item: the newest save's.
    payload: (v, n) => ({
      exclusions: [
        ...v.exclusions.filter((e: View) => !String(e.id).startsWith('ZZ')),
        { id: `ZZ${n}|`, libelle: `Famille ${n}`, type: 'ItemFamily' },
      ],
    }),
    value: (n) => `ZZ${n}|`,
    read: (v) => v.exclusions.find((e: View) => String(e.id).startsWith('ZZ'))?.id ?? '',
  },
  {
    ...route('complement'),
    scope: 'complement',
    payload: (v, n) => ({
      googleApiKey: v.googleApiKey,
      driveType: v.driveType,
      mailRapport: { ...v.mailRapport, mailDestinataire: `admin${n}@example.fr` },
      scriptComplementaire: v.scriptComplementaire,
    }),
    value: (n) => `admin${n}@example.fr`,
    read: (v) => v.mailRapport.mailDestinataire,
  },
  {
    ...route('planifications'),
    scope: 'planifications',
    payload: (_v, n) => ({ plannings: [{ day: 1 + (n % 7), time: timeOf(n), type: 'R' }] }),
    value: (n) => `${1 + (n % 7)} ${timeOf(n)}`,
    read: (v) => (v.plannings.length === 1 ? `${v.plannings[0].day} ${v.plannings[0].time}` : ''),
  },
];

/** Terminal saves: each terminal of the fixture is its own scope. */
const terminal = (k: number): SectionSave => ({
  ...route('terminals'),
  scope: `terminal ${k}`,
  payload: (v, n) => {
    const t = v.terminals[k];
    return {
      terminalIndex: t.xmlIndex,
      terminal: {
        Nom: t.Nom,
        ID_Tablette: `TAB-${n}`,
        ID_Smartphone: t.ID_Smartphone,
        technicienId: t.technicienId,
        depotId: t.depotId,
        commerciaux: t.commerciaux,
        authorizations: t.authorizations,
      },
    };
  },
  value: (n) => `TAB-${n}`,
  read: (v) => v.terminals[k].ID_Tablette,
});

/** Every section of the registry that has a save, with three of the terminals. */
export const SECTION_SAVES: SectionSave[] = [...SECTIONS, terminal(0), terminal(1), terminal(2)];

/** The value of every save's field in a stored text (parsed once), by scope. */
export function valuesIn(text: string): Map<string, string> {
  const doc = parseConfig(text);
  return new Map(
    SECTION_SAVES.map((s) => [s.scope, s.read(SECTION_VIEWS[s.key](doc, { hadHistory: new Set() }))]),
  );
}
