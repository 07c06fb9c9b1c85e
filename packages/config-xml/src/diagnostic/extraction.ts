import { decodeForDisplay } from './encoding-runs.ts';
import { unescapeXml, type TLenientTree } from './lenient-tree.ts';

/** Key field name → path of the leaf whose text is shown. */
export const EXTRACTED_VALUES: Readonly<Record<string, string>> = {
  VersionConnecteur: 'Info/VersionConnecteur',
  NuxiAutomateInstall: 'Info/NuxiAutomateInstall',
  NuxiAutomateLibelle: 'Info/NuxiAutomateLibelle',
  DateMAJConfig: 'Info/DateMAJConfig',
  Exe: 'Info/Exe',
  Serial: 'Info/Serial',
  'DerSynchro.DateHeure': 'DerSynchro/DateHeure',
  'DerSynchro.TypeDeSync': 'DerSynchro/TypeDeSync',
  'DerSynchro.Duree': 'DerSynchro/Duree',
  'DerSynchro.NbEnreg': 'DerSynchro/NbEnreg',
  FuseauHoraire: 'Planifications/FuseauHoraire',
};

/** Key count name → [section path, item path]; 'NC' when the section is absent. */
export const EXTRACTED_COUNTS: Readonly<Record<string, readonly [string, string]>> = {
  NbSources: ['Sources', 'Sources/Source'],
  NbLiaisons: ['Liaisons_Externes', 'Liaisons_Externes/Liaisons/Liaison'],
  NbCorrespondances: ['Liaisons_Externes', 'Liaisons_Externes/Agenda/Correspondances/Correspondance'],
  NbPlannings: ['Planifications', 'Planifications/Planning'],
  NbSalaries: ['Data', 'Data/CMB_SALARIES/SALARIES'],
  NbTechniciens: ['Data', 'Data/CMB_TECHNICIENS/TECHNICIENS'],
  NbDepots: ['Data', 'Data/CMB_STOCK_DEPOT/DEPOT'],
  NbFamillesArticle: ['Data', 'Data/CMB_FAMILLEARTICLE/FAMILLEARTICLE'],
  NbDonnees: ['Donnees_A_Synchroniser', 'Donnees_A_Synchroniser/Donnee'],
  NbExclusions: ['Exclusions', 'Exclusions/Exclusion'],
  NbTerminaux: ['Terminaux', 'Terminaux/Terminal'],
};

export const WANTED_PATHS: ReadonlySet<string> = new Set(Object.values(EXTRACTED_VALUES));

export const NOT_COMMUNICATED = 'NC';

function leafValue(tree: TLenientTree, path: string): string {
  const stats = tree.paths.get(path);
  if (stats === undefined) return NOT_COMMUNICATED;
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (stats.unclosed) return `Error: balise <${name}> non fermée`;
  if (stats.hasChildren) return `Error: <${name}> contient des éléments au lieu d’une valeur`;
  if (stats.count > 1) return `Error: <${name}> présent ${stats.count} fois`;
  const value = decodeForDisplay(unescapeXml(stats.raw ?? '')).trim();
  return value === '' ? NOT_COMMUNICATED : value;
}

/** The extraction results of the diagnostic, from a lenient walk made with WANTED_PATHS. */
export function extractValues(tree: TLenientTree): Record<string, string> {
  const results: Record<string, string> = {};
  if (tree.root === null) return results;
  for (const [name, path] of Object.entries(EXTRACTED_VALUES)) results[name] = leafValue(tree, path);
  for (const [name, [section, item]] of Object.entries(EXTRACTED_COUNTS)) {
    results[name] = tree.paths.has(section) ? String(tree.paths.get(item)?.count ?? 0) : NOT_COMMUNICATED;
  }
  return results;
}
