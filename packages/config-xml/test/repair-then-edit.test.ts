import { describe, expect, it } from 'vitest';
import * as engine from '../src/index.ts';

/** Documents whose sections are all created by repairConfig (empty, `<Name/>`). */
const SKELETONS = {
  'self-closing root, LF': '<Connexion/>',
  'empty root, CRLF, declaration and BOM':
    '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\r\n<Connexion>\r\n  <Info/>\r\n</Connexion>\r\n',
};

/** One payload per section editor, each writing something into its empty section. */
const EDITS: [string, (text: string) => string][] = [
  [
    'editSources',
    (text) =>
      engine.editSources(text, {
        sources: [
          {
            Provider: 'SQLOLEDB',
            Serveur: 'srv',
            Nom_BDD: 'Base é',
            Lecture_Seule: false,
            Utilisateur: 'sa',
            MDP: 'x',
          },
        ],
      }),
  ],
  [
    'editExternalLinks',
    (text) =>
      engine.editExternalLinks(text, {
        Dossier_Import: 'C:\\in',
        Dossier_Export: 'C:\\out',
        Liaisons: [{ Logiciel: 'Logiciel & co', Config: 'c', Utilisateur: 'u', MDP: 'p' }],
      }),
  ],
  [
    'editExternalCalendars',
    (text) => engine.editExternalCalendars(text, { agendaType: 'Google', mappings: [] }),
  ],
  [
    'editSyncData',
    (text) =>
      engine.editSyncData(text, {
        syncData: [{ Reference: 'ART', Complete: true, Libelle: 'Articles', Histo: 3 }],
      }),
  ],
  [
    'editExclusions',
    (text) =>
      engine.editExclusions(text, { exclusions: [{ id: 'FAM|', libelle: 'Famille', type: 'ItemFamily' }] }),
  ],
  [
    'editComplement',
    (text) =>
      engine.editComplement(text, {
        googleApiKey: 'clé',
        driveType: 'google',
        mailRapport: {
          envoyerRapport: true,
          mailDestinataire: 'a@b.fr',
          notifErr: true,
          notifInf: false,
          notifImp: false,
          globaliserEnregImport: false,
        },
        scriptComplementaire: '[CONFIG]\nA=B',
      }),
  ],
  [
    'editPlanifications',
    (text) =>
      engine.editPlanifications(text, {
        plannings: [{ day: 8, time: '00:00', type: 'C' }],
        timeZone: { value: '+01:00', label: 'Europe/Paris' },
      }),
  ],
];

describe('section edits on documents repaired from a bare root', () => {
  for (const [name, skeleton] of Object.entries(SKELETONS)) {
    const repaired = engine.repairConfig(skeleton).text;
    for (const [editor, edit] of EDITS) {
      it(`${editor} on ${name} writes a valid, readable document`, () => {
        const edited = edit(repaired);
        expect(edited).not.toBe(repaired);
        expect(engine.diagnoseConfig(edited).isValid).toBe(true);
        const doc = engine.parseConfig(edited);
        engine.readSources(doc);
        engine.readExternalLinks(doc);
        engine.readExternalCalendars(doc);
        engine.readSyncData(doc);
        engine.readExclusions(doc);
        engine.readComplement(doc);
        engine.readPlanifications(doc);
        // And the edit needs no further repair.
        expect(engine.repairConfig(edited).changes).toEqual([]);
      });
    }
  }
});
