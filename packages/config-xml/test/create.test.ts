import { describe, expect, it } from 'vitest';
import { SECRET_PLACEHOLDER } from '@synchro/contracts';
import {
  editComplement,
  editExternalCalendars,
  editSources,
  editTerminal,
  parseConfig,
  readComplement,
  readExternalCalendars,
  readSources,
} from '../src/index.ts';
import { FIXTURE } from './helpers.ts';

const emptySources = () => readSources(parseConfig('<Connexion/>')).sources;

describe('created nodes follow the document', () => {
  it('a self-closing root is opened, the section indented with the default unit', () => {
    const s = emptySources();
    s[0] = { ...s[0]!, Provider: 'CLOUD' };
    const out = editSources('<?xml version="1.0"?>\n<Connexion/>\n', { sources: s });
    expect(out).toBe(
      '<?xml version="1.0"?>\n<Connexion>\n  <Sources>\n    <Source>\n      <Provider>CLOUD</Provider>\n      <Serveur/>\n      <Nom_BDD/>\n      <Utilisateur/>\n      <MDP/>\n      <Lecture_Seule>0</Lecture_Seule>\n      <IP_Public/>\n      <Port_Public/>\n    </Source>\n  </Sources>\n</Connexion>\n',
    );
    expect(readSources(parseConfig(out)).sources[0]!.Provider).toBe('CLOUD');
  });

  it('a section goes before the first later section when no earlier one exists, with tabs and <Tag /> style', () => {
    const text = '<Connexion>\r\n\t<Info>\r\n\t\t<Exe />\r\n\t</Info>\r\n</Connexion>';
    const out = editComplement(text, {
      googleApiKey: 'k',
      driveType: 'none',
      mailRapport: {
        envoyerRapport: false,
        mailDestinataire: '',
        notifErr: false,
        notifInf: false,
        notifImp: false,
        globaliserEnregImport: false,
      },
      scriptComplementaire: '',
    });
    expect(out).toBe(
      '<Connexion>\r\n\t<Complement>\r\n\t\t<APIKey_Google>k</APIKey_Google>\r\n\t</Complement>\r\n\t<Info>\r\n\t\t<Exe />\r\n\t</Info>\r\n</Connexion>',
    );
    expect(readComplement(parseConfig(out)).googleApiKey).toBe(SECRET_PLACEHOLDER);
  });

  it('an empty save into a missing section leaves the document as it was', () => {
    const text = '<Connexion>\n  <Info/>\n</Connexion>\n';
    expect(editSources(text, { sources: emptySources() })).toBe(text);
    expect(
      editExternalCalendars(text, { agendaType: '', mappings: [{ ID_Salarie: '', ID_Agenda: '-1' }] }),
    ).toBe(text);
  });

  it('comments and unknown nodes inside an edited section survive', () => {
    const text = FIXTURE.replace(
      '<Provider>SQLOLEDB</Provider>',
      '<!-- choisi par X --><Provider>SQLOLEDB</Provider><Inconnu a="1">z</Inconnu>',
    );
    const s = readSources(parseConfig(text)).sources;
    s[0] = { ...s[0]!, Provider: 'MSDASQL', MDP: 'retapé' };
    const out = editSources(text, { sources: s });
    expect(out).toContain('<!-- choisi par X --><Provider>MSDASQL</Provider><Inconnu a="1">z</Inconnu>');
  });

  it('an element with attributes keeps them when it gets a value', () => {
    const text =
      '<Connexion>\n  <Liaisons_Externes>\n    <Agenda>\n      <Type_Agenda v="2"/>\n    </Agenda>\n  </Liaisons_Externes>\n</Connexion>\n';
    const out = editExternalCalendars(text, { agendaType: 'Google', mappings: [] });
    expect(out).toContain('<Type_Agenda v="2">Google</Type_Agenda>');
    expect(readExternalCalendars(parseConfig(out)).agendaType).toBe('Google');
  });

  it('a terminal without Filtres gets one, indented like its siblings', () => {
    const text =
      '<Connexion>\n  <Data>\n    <CMB_TECHNICIENS>\n      <TECHNICIENS><Nom>A</Nom><Prenom>B</Prenom><IDInterne>T1</IDInterne></TECHNICIENS>\n    </CMB_TECHNICIENS>\n  </Data>\n  <Terminaux>\n    <Terminal>\n      <Nom>x</Nom>\n    </Terminal>\n  </Terminaux>\n</Connexion>\n';
    const out = editTerminal(text, 0, {
      Nom: 'x',
      ID_Tablette: '',
      ID_Smartphone: '',
      technicienId: 'T1',
      depotId: '',
      commerciaux: [],
      authorizations: [{ ID: '2', Autorise: 1, Libelle: 'Deux' }],
    });
    expect(out).toContain(
      '    <Terminal>\n      <Nom>x</Nom>\n      <Filtres>\n        <Techniciens>\n          <Technicien>\n            <IDInterne>T1</IDInterne>\n            <Code>T1</Code>\n            <Libelle>A B</Libelle>\n          </Technicien>\n        </Techniciens>\n      </Filtres>\n      <Autorisations>\n        <Autorisation>\n          <ID>2</ID>\n          <Autorise>1</Autorise>\n          <Libelle>Deux</Libelle>\n        </Autorisation>\n        <Autorisation_Longue>0|1|0',
    );
  });
});
