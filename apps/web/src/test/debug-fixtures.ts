import type { TConfigDiagnostic, TRepairResponse } from '@synchro/contracts';

/** The long Exe path of the demo installation (more than 50 characters). */
export const LONG_EXE =
  'C:\\Program Files (x86)\\Nuxilog\\NuxiSynchro\\Connecteur\\NuxiSynchroConnecteur.exe';

/** A well-formed document whose labels were escaped twice by an old connector. */
export const validDiagnostic: TConfigDiagnostic = {
  hasXML: true,
  xmlLength: 48213,
  isValid: true,
  canExtractValues: true,
  parseError: null,
  problematicLine: null,
  problematicContent: [],
  extractionResults: {
    VersionConnecteur: '6.19.4',
    NuxiAutomateInstall: '1',
    NuxiAutomateLibelle: 'Version : 6.11.23.9',
    DateMAJConfig: '20250305093300664',
    Exe: LONG_EXE,
    Serial: 'NC',
    'DerSynchro.DateHeure': '20250309080952542',
    'DerSynchro.NbEnreg': '1838',
    NbSources: '2',
    NbTerminaux: '8',
  },
  issues: [
    {
      code: 'double-escaped-entity',
      severity: 'warning',
      message:
        '3 entité(s) échappée(s) deux fois (« &amp;apos; » au lieu de « &apos; ») : le texte affiché montre « &apos; » au lieu de l’apostrophe.',
      line: 214,
      count: 3,
    },
  ],
};

/** The same document, repaired: nothing left to report. */
export const cleanDiagnostic: TConfigDiagnostic = { ...validDiagnostic, xmlLength: 48180, issues: [] };

/** A document broken at line 42 by a bare '&' in a customer label. */
export const invalidDiagnostic: TConfigDiagnostic = {
  hasXML: true,
  xmlLength: 1234567,
  isValid: false,
  canExtractValues: true,
  parseError: 'Ligne 42 : « & » isolé (il doit être écrit « &amp; »)',
  problematicLine: 42,
  problematicContent: [
    { lineNumber: 39, content: '    <SALARIES>', isProblematic: false },
    { lineNumber: 40, content: '      <Nom>DUPONT</Nom>', isProblematic: false },
    { lineNumber: 41, content: '      <Prenom>Jean</Prenom>', isProblematic: false },
    { lineNumber: 42, content: '      <Libelle>Martin & Fils</Libelle>', isProblematic: true },
    { lineNumber: 43, content: '      <IDInterne>17</IDInterne>', isProblematic: false },
    { lineNumber: 44, content: '    </SALARIES>', isProblematic: false },
    { lineNumber: 45, content: '  </CMB_SALARIES>', isProblematic: false },
  ],
  extractionResults: {
    VersionConnecteur: '6.19.4',
    Serial: 'NC',
    NbSalaries: 'Error: section CMB_SALARIES illisible (ligne 42)',
  },
  issues: [
    {
      code: 'double-escaped-entity',
      severity: 'warning',
      message: '1 entité(s) échappée(s) deux fois (« &amp;apos; » au lieu de « &apos; »).',
      line: 12,
      count: 1,
    },
    {
      code: 'bare-ampersand',
      severity: 'error',
      message: '1 « & » isolé(s) qui ne commencent pas une entité XML (ils doivent être écrits « &amp; »).',
      line: 42,
      count: 1,
    },
  ],
};

export const repairAnswer: TRepairResponse = {
  changes: [
    { code: 'bare-ampersand', message: '1 « & » isolé remplacé par « &amp; ».', line: 42 },
    { code: 'double-escaped-entity', message: '1 entité échappée deux fois corrigée.', line: 12 },
  ],
  backupVersion: 3,
  version: 4,
  diagnostic: cleanDiagnostic,
};
