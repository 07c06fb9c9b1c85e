import { describe, expect, it } from 'vitest';
import { SECRET_PLACEHOLDER } from '@synchro/contracts';
import {
  countPlannings,
  parseConfig,
  readComplement,
  readDataLists,
  readExclusions,
  readExternalCalendars,
  readExternalLinks,
  readGlobalAuthorizations,
  readInfo,
  readLastSync,
  readPlanifications,
  readSources,
  readSyncData,
  referencesWithHistory,
  readTerminals,
} from '../src/index.ts';
import { FIXTURE } from './helpers.ts';

const doc = parseConfig(FIXTURE);

describe('readers on the fixture', () => {
  it('readInfo', () => {
    expect(readInfo(doc)).toEqual({
      exe: 'C:\\Mes Projets\\Synchro NuxiDev\\Exe\\Exécutable Windows 64 bits\\Synchro NuxiDev.exe',
      serial: 'DEMO-EB15-AB22-A1BA-5B66',
      automateInstall: 1,
      automateLabel: 'Version : 6.11.23.9',
      configUpdatedAt: '20250305093300664',
      connectorVersion: null,
    });
  });

  it('readLastSync', () => {
    expect(readLastSync(doc)).toEqual({
      dateHeure: '20250309080952542',
      type: 'Complète',
      duration: '00:04:11',
      durationAlert: false,
      records: 1838,
      speed: 5927,
      volume: '3,721 Mo',
      volumeAlert: false,
    });
  });

  it('readSources: four blocks, password replaced, status kept', () => {
    const { sources } = readSources(doc);
    expect(sources).toHaveLength(4);
    expect(sources[0]).toEqual({
      Provider: 'SQLOLEDB',
      Serveur: 'localhost\\ebp',
      Nom_BDD: 'DemoSociete_6874b05c',
      Lecture_Seule: false,
      Utilisateur: 'sa',
      MDP: SECRET_PLACEHOLDER,
      Status: 1,
      StatusLibelle: ' Ok : SQL',
    });
    expect(sources[1]).toEqual({
      Provider: '',
      Serveur: '',
      Nom_BDD: '',
      Lecture_Seule: false,
      Utilisateur: '',
      MDP: '',
      Status: null,
      StatusLibelle: '',
    });
  });

  it('readSources pads a document with fewer blocks', () => {
    const d = parseConfig(
      '<Connexion><Sources><Source><Provider>CLOUD</Provider><MDP/><Lecture_Seule>1</Lecture_Seule></Source></Sources></Connexion>',
    );
    const { sources } = readSources(d);
    expect(sources).toHaveLength(4);
    expect(sources[0]).toMatchObject({ Provider: 'CLOUD', MDP: '', Lecture_Seule: true });
    expect(readSources(parseConfig('<Connexion/>')).sources).toHaveLength(4);
  });

  it('readExternalLinks', () => {
    const v = readExternalLinks(doc);
    expect(v.Dossier_Import).toBe('C:\\Users\\Public\\Documents\\Synchro NuxiDev\\DEMOA001\\Import');
    expect(v.Dossier_Export).toBe('C:\\Users\\Public\\Documents\\Synchro NuxiDev\\DEMOA001\\Export');
    expect(v.Liaisons).toHaveLength(4);
    expect(v.Liaisons[0]).toEqual({
      Logiciel: 'C:\\Program Files\\EBP\\Invoicing24.0FRFR40\\EBP.Invoicing.Application.exe',
      Config: 'C:\\Users\\Utilisateur\\Documents\\DemoSociete.ebp',
      Utilisateur: 'EBPSDKx',
      MDP: SECRET_PLACEHOLDER,
    });
    expect(v.Liaisons[3]).toEqual({ Logiciel: '', Config: '', Utilisateur: '', MDP: '' });
  });

  it('readExternalCalendars: type, 25 mappings, employees = salariés + techniciens', () => {
    const v = readExternalCalendars(doc);
    expect(v.agendaType).toBe('Google');
    expect(v.mappings).toHaveLength(25);
    expect(v.mappings[0]).toEqual({ ID_Salarie: 'CO00002', ID_Agenda: 'agenda-4a4230@exemple.fr' });
    expect(v.mappings[1]).toEqual({ ID_Salarie: '-1', ID_Agenda: '-1' });
    expect(v.employees.map((e) => `${e.kind}:${e.IDInterne}`)).toEqual([
      'salarie:CO00002',
      'salarie:CO00005',
      'salarie:CO00001',
      'salarie:CO00004',
      'technicien:CO00006',
      'technicien:CO00008',
      'technicien:CO00007',
      'technicien:CO00003',
    ]);
    expect(v.employees[4]).toEqual({
      IDInterne: 'CO00006',
      Nom: 'LEROY',
      Prenom: 'Chloé',
      kind: 'technicien',
    });
    expect(v.agendas).toEqual([]);
    expect(JSON.stringify(v)).not.toContain('PGpldG9u');
  });

  it('readExternalCalendars: an empty ID_Salarie or ID_Agenda reads as libre (-1), like a stored -1', () => {
    // The fixture with its first agenda and its second row written empty instead of -1.
    const xml = FIXTURE.replace('<ID_Agenda>agenda-4a4230@exemple.fr</ID_Agenda>', '<ID_Agenda/>')
      .replace('<ID_Salarie>-1</ID_Salarie>', '<ID_Salarie></ID_Salarie>')
      .replace('<ID_Agenda>-1</ID_Agenda>', '<ID_Agenda/>');
    expect(xml).toContain('<ID_Salarie>CO00002</ID_Salarie>\r\n          <ID_Agenda/>');
    expect(xml).toContain('<ID_Salarie></ID_Salarie>\r\n          <ID_Agenda/>');
    const stored = readExternalCalendars(doc).mappings;
    const v = readExternalCalendars(parseConfig(xml));
    expect(v.mappings[0]).toEqual({ ID_Salarie: 'CO00002', ID_Agenda: '-1' });
    expect(v.mappings[1]).toEqual({ ID_Salarie: '-1', ID_Agenda: '-1' });
    expect(v.mappings[1]).toEqual(stored[1]);
    expect(v.mappings.slice(1)).toEqual(stored.slice(1));
  });

  it('readDataLists: decoded names, families with family|sub ids', () => {
    const v = readDataLists(doc);
    expect(v.salaries[0]).toEqual({ IDInterne: 'CO00002', Nom: 'BERGER', Prenom: 'Hugo' });
    expect(v.techniciens.find((t) => t.IDInterne === 'CO00003')?.Prenom).toBe('Inès');
    expect(v.depots).toEqual([
      {
        IDInterne: '3b7fa0c3-1f64-449f-9277-cb8d8ccb9663',
        Code: '3b7fa0c3-1f64-449f-9277-cb8d8ccb9663',
        Libelle: 'Principal',
      },
      {
        IDInterne: 'b9630c69-90a5-4fac-b4a2-6ca3f9750fde',
        Code: 'b9630c69-90a5-4fac-b4a2-6ca3f9750fde',
        Libelle: 'Secondaire',
      },
    ]);
    expect(v.famillesArticles[0]).toEqual({ id: 'ALARME|', libelle: 'ALARME et Sécurité', subFamilies: [] });
    expect(v.famillesClients).toEqual([
      { id: 'FCL00001|', libelle: 'Autres', subFamilies: [] },
      {
        id: 'CE0001|',
        libelle: "Comités d'entreprise",
        subFamilies: [{ id: 'CE0001|SFCL00002', libelle: 'Entreprises Etrangères' }],
      },
      {
        id: 'PA0001|',
        libelle: 'Particuliers',
        subFamilies: [{ id: 'PA0001|SFCL00001', libelle: 'Particuliers Etrangèrs' }],
      },
    ]);
    expect(v.famillesFournisseurs).toEqual([{ id: 'GROSSI|', libelle: 'Grossiste', subFamilies: [] }]);
    const puzzles = v.famillesArticles.find((f) => f.id === 'PUZZ0001|');
    expect(puzzles?.subFamilies.map((s) => s.id)).toContain('PUZZ0001|SFAR00002');
  });

  it('readGlobalAuthorizations: gathered from the terminals when Data has none', () => {
    const v = readGlobalAuthorizations(doc);
    expect(v.from).toBe('terminals');
    expect(v.authorizations).toHaveLength(55);
    expect(v.authorizations[0]).toEqual({ ID: '1', Libelle: 'Clients / Prospects' });
    expect(v.authorizations.map((a) => a.ID).slice(18, 22)).toEqual(['19', '20', '53', '54']);
    const withData = parseConfig(
      '<Connexion><Data><Autorisations><Autorisation><ID>7</ID><Libelle>Sept</Libelle></Autorisation></Autorisations></Data></Connexion>',
    );
    expect(readGlobalAuthorizations(withData)).toEqual({
      authorizations: [{ ID: '7', Libelle: 'Sept' }],
      from: 'data',
    });
  });

  it('readSyncData: 63 items, decoded labels, CanHaveHistory', () => {
    const { syncData } = readSyncData(doc);
    expect(syncData).toHaveLength(63);
    expect(syncData[0]).toEqual({
      Reference: 'ADRESSE-CLIENT',
      Complete: true,
      Libelle: 'Adresse Client',
      Histo: 0,
      CanHaveHistory: false,
    });
    expect(syncData.find((d) => d.Reference === 'ADRESSE-DEPOT')?.Libelle).toBe('Adresse des dépôts');
    expect(syncData.find((d) => d.Reference === 'GED_DOC_A')).toEqual({
      Reference: 'GED_DOC_A',
      Complete: true,
      Libelle: "GED Doc d'achat",
      Histo: 9000,
      CanHaveHistory: true,
    });
    expect(syncData.find((d) => d.Reference === 'GED_APPAREIL')?.Complete).toBe(false);
  });

  it('readSyncData takes CanHaveHistory from ElementsSync when present', () => {
    const d = parseConfig(
      '<Connexion><Data><ElementsSync><Element><Code>A</Code><Histo>1</Histo></Element><Element><Code>B</Code><Histo>0</Histo></Element></ElementsSync></Data>' +
        '<Donnees_A_Synchroniser><Donnee><Reference>A</Reference><Complete>1</Complete><Libelle>a</Libelle><Histo>0</Histo></Donnee>' +
        '<Donnee><Reference>B</Reference><Complete>0</Complete><Libelle>b</Libelle><Histo>5</Histo></Donnee></Donnees_A_Synchroniser></Connexion>',
    );
    expect(readSyncData(d).syncData.map((x) => x.CanHaveHistory)).toEqual([true, false]);
  });

  it('without ElementsSync, an item that had a history (hadHistory) still can have one at 0', () => {
    const d = parseConfig(
      '<Connexion><Donnees_A_Synchroniser><Donnee><Reference>A</Reference><Complete>1</Complete><Libelle>a</Libelle><Histo>0</Histo></Donnee>' +
        '<Donnee><Reference>B</Reference><Complete>1</Complete><Libelle>b</Libelle><Histo>0</Histo></Donnee>' +
        '<Donnee><Reference>C</Reference><Complete>1</Complete><Libelle>c</Libelle><Histo>12</Histo></Donnee></Donnees_A_Synchroniser></Connexion>',
    );
    expect(readSyncData(d).syncData.map((x) => x.CanHaveHistory)).toEqual([false, false, true]);
    expect(readSyncData(d, new Set(['B'])).syncData.map((x) => x.CanHaveHistory)).toEqual([
      false,
      true,
      true,
    ]);
    expect(referencesWithHistory(d)).toEqual(['C']);
    // ElementsSync, when present, says it alone.
    const withList = parseConfig(
      '<Connexion><Data><ElementsSync><Element><Code>B</Code><Histo>0</Histo></Element></ElementsSync></Data>' +
        '<Donnees_A_Synchroniser><Donnee><Reference>B</Reference><Complete>1</Complete><Libelle>b</Libelle><Histo>0</Histo></Donnee></Donnees_A_Synchroniser></Connexion>',
    );
    expect(readSyncData(withList, new Set(['B'])).syncData[0]?.CanHaveHistory).toBe(false);
  });

  it('referencesWithHistory: the fixture items whose Histo is above 0', () => {
    const refs = referencesWithHistory(doc);
    expect(refs).toHaveLength(readSyncData(doc).syncData.filter((x) => x.Histo > 0).length);
    expect(refs).toContain('AFFAIRE');
    expect(refs).toContain('PLANNING');
    expect(refs).not.toContain('ARTICLE');
  });

  it('readExclusions: the three family types, decoded, NuxiSavOnLine left out', () => {
    const { exclusions } = readExclusions(doc);
    expect(exclusions).toHaveLength(7);
    expect(exclusions[0]).toEqual({ id: 'ANIM0001|', libelle: 'ANIMATIONS', type: 'ItemFamily' });
    expect(exclusions[4]).toEqual({
      id: 'PUZZ0001|SFAR00002',
      libelle: 'PUZZLES\tPuzzle - 900 pièces',
      type: 'ItemFamily',
    });
    expect(exclusions[5]).toEqual({
      id: 'CE0001|SFCL00002',
      libelle: "Comités d'entreprise\tEntreprises Etrangères",
      type: 'CustomerFamily',
    });
    expect(exclusions[6]).toEqual({ id: 'GROSSI|', libelle: 'Grossiste', type: 'SupplierFamily' });
    expect(exclusions.some((e) => (e.type as string) === 'NuxiSavOnLine')).toBe(false);
  });

  it('readComplement: CRLF script as LF, no customer-area login', () => {
    const v = readComplement(doc);
    expect(v).toEqual({
      googleApiKey: SECRET_PLACEHOLDER, // api.gouv.fr: a secret, never shown
      driveType: 'none',
      mailRapport: {
        envoyerRapport: false,
        mailDestinataire: 'admin@exemple.fr',
        notifErr: true,
        notifInf: false,
        notifImp: false,
        globaliserEnregImport: false,
      },
      scriptComplementaire:
        '[CONFIG]\nLIMITER_ARTICLE=NON\nPHOTO=C:\\Users\\Public\\Documents\\NuxiDev Import\\4\\Images\\\nPHOTO_FORMAT=LIEN\nBON_DE_TRANSFERT=TransferRequests\ngCodeDynamiqueStdXML=L',
    });
    expect(JSON.stringify(v)).not.toContain('DEMOA001');
  });

  it('readPlanifications and countPlannings', () => {
    expect(readPlanifications(doc)).toEqual({
      timeZone: 'Europe/Paris',
      timeZoneOffset: '+01:00',
      plannings: [],
    });
    expect(countPlannings(doc)).toEqual({ C: 0, R: 0, I: 0 });
    const d = parseConfig(
      '<Connexion><Planifications><FuseauHoraire>Europe/Paris</FuseauHoraire>' +
        ['C', 'C', 'R', 'I', 'c', 'X']
          .map(
            (o, i) => `<Planning><Jour>${i + 1}</Jour><Heure>0${i}:15</Heure><Ordre>${o}</Ordre></Planning>`,
          )
          .join('') +
        '</Planifications></Connexion>',
    );
    expect(countPlannings(d)).toEqual({ C: 3, R: 1, I: 1 });
    expect(readPlanifications(d).plannings[0]).toEqual({ day: 1, time: '00:15', type: 'C' });
    expect(readPlanifications(d).timeZoneOffset).toBe('');
  });

  it('readTerminals: names, Libre, declared, filters, merged authorisations', () => {
    const { terminals } = readTerminals(doc);
    expect(terminals).toHaveLength(25);
    expect(terminals.map((t) => t.Nom).slice(0, 9)).toEqual([
      'pixel 8',
      'Windev Windows',
      'Tablette atelier',
      'ipad',
      'iPhone 15',
      'Zebra',
      'Tab S8',
      'Simul Mac',
      'Libre',
    ]);
    expect(terminals.filter((t) => t.declared)).toHaveLength(8);
    const t0 = terminals[0]!;
    expect(t0).toMatchObject({
      xmlIndex: 0,
      ID_Tablette: '815bf75ff86d94fa',
      ID_Smartphone: '4127ca92e1ae327b',
      technicienId: 'CO00006',
      depotId: '3b7fa0c3-1f64-449f-9277-cb8d8ccb9663',
      commerciaux: [
        { IDInterne: 'CO00002', Libelle: 'BERGER Hugo' },
        { IDInterne: 'CO00001', Libelle: 'ROUSSEL Nadia' },
        { IDInterne: 'CO00004', Libelle: 'GARNIER Yanis' },
      ],
    });
    expect(t0.authorizations).toHaveLength(55);
    expect(t0.authorizations.slice(0, 3)).toEqual([
      { ID: '1', Libelle: 'Clients / Prospects', Autorise: 1 },
      { ID: '2', Libelle: 'Clients / Prospects (saisie)', Autorise: -1 },
      { ID: '3', Libelle: 'Fournisseurs', Autorise: 0 },
    ]);
    expect(t0.authorizations.find((a) => a.Libelle.startsWith('Bons d'))?.Libelle).toBe("Bons d'entrée");
    expect(t0.authorizations.find((a) => a.ID === '70')?.Libelle).toBe(
      'Valorisation des doc : Visible/Masqué',
    );
    // terminal 3 has 53 entries: the two others are merged in at 0
    expect(terminals[3]!.authorizations).toHaveLength(55);
    // an empty terminal: everything 0, no commercial (the empty placeholder is not one)
    expect(terminals[10]).toMatchObject({
      Nom: 'Libre',
      declared: false,
      technicienId: '',
      depotId: '',
      commerciaux: [],
    });
    expect(terminals[10]!.authorizations.every((a) => a.Autorise === 0)).toBe(true);
  });

  it('readTerminals: duplicate names become Libre except the first', () => {
    const t = (nom: string): string => `<Terminal><Nom>${nom}</Nom><ID_Tablette>x</ID_Tablette></Terminal>`;
    const d = parseConfig(
      `<Connexion><Terminaux>${t('A')}${t('B')}${t('A')}${t('')}${t('LÃ©a')}${t('B ')}</Terminaux></Connexion>`,
    );
    expect(readTerminals(d).terminals.map((x) => x.Nom)).toEqual([
      'A',
      'B',
      'Libre',
      'Libre',
      'Léa',
      'Libre',
    ]);
  });

  it('every reader works on a document with no sections', () => {
    const d = parseConfig('<?xml version="1.0"?><Connexion/>');
    expect(readInfo(d).exe).toBe('');
    expect(readLastSync(d).records).toBeNull();
    expect(readExternalLinks(d).Liaisons).toHaveLength(4);
    expect(readExternalCalendars(d)).toEqual({ agendaType: '', mappings: [], employees: [], agendas: [] });
    expect(readSyncData(d).syncData).toEqual([]);
    expect(readExclusions(d).exclusions).toEqual([]);
    expect(readComplement(d).driveType).toBe('none');
    expect(readTerminals(d).terminals).toEqual([]);
    expect(readDataLists(d).famillesArticles).toEqual([]);
  });
});
