import { describe, expect, it } from 'vitest';
import { SECRET_PLACEHOLDER, type TSectionPayloadNormal } from '@synchro/contracts';
import {
  ConfigXmlError,
  countPlannings,
  editComplement,
  editExclusions,
  editExternalCalendars,
  editExternalLinks,
  editPlanifications,
  editScope,
  editSources,
  editSyncData,
  editTerminal,
  parseConfig,
  readComplement,
  readExclusions,
  readExternalCalendars,
  readExternalLinks,
  readPlanifications,
  readSources,
  readSyncData,
  readTerminals,
  sectionOf,
} from '../src/index.ts';
import { expectOnlySectionChanged } from './edit-helpers.ts';
import { FIXTURE, spacedSelfClose, toLf, withBom } from './helpers.ts';

const doc = parseConfig(FIXTURE);
const sources = () => structuredClone(readSources(doc));
const links = () => structuredClone(readExternalLinks(doc));
const calendars = () => {
  const v = readExternalCalendars(doc);
  return { agendaType: v.agendaType as '' | 'Google' | 'Microsoft', mappings: structuredClone(v.mappings) };
};
const complement = () => structuredClone(readComplement(doc)) as TSectionPayloadNormal<'complement'>;
const terminal = (i: number) => structuredClone(readTerminals(doc).terminals[i]!);

function fails(fn: () => unknown, code: string): ConfigXmlError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigXmlError);
    expect((e as ConfigXmlError).code).toBe(code);
    return e as ConfigXmlError;
  }
  throw new Error('should have failed');
}

describe('no-op edits give the same bytes', () => {
  it.each([
    ['fixture', FIXTURE],
    ['BOM', withBom(FIXTURE)],
    ['LF', toLf(FIXTURE)],
    ['<Tag />', spacedSelfClose(FIXTURE)],
  ])('%s', (_l, text) => {
    const d = parseConfig(text);
    expect(editSources(text, readSources(d))).toBe(text);
    expect(editExternalLinks(text, readExternalLinks(d))).toBe(text);
    const c = readExternalCalendars(d);
    expect(editExternalCalendars(text, { agendaType: c.agendaType as 'Google', mappings: c.mappings })).toBe(
      text,
    );
    expect(editSyncData(text, readSyncData(d))).toBe(text);
    expect(editExclusions(text, readExclusions(d))).toBe(text);
    expect(editComplement(text, readComplement(d) as TSectionPayloadNormal<'complement'>)).toBe(text);
    const p = readPlanifications(d);
    expect(
      editPlanifications(text, { plannings: [], timeZone: { value: p.timeZoneOffset, label: p.timeZone } }),
    ).toBe(text);
    for (const t of readTerminals(d).terminals) expect(editTerminal(text, t.xmlIndex, t)).toBe(text);
  });
});

describe('editSources', () => {
  it('a password typed over a stored one with a double-escaping artefact is written', () => {
    // Stored « p&amp;w » (the connector reads it so), shown « p&w »: typing p&w means p&w.
    const stored = FIXTURE.replace('<MDP>Demo-75e469</MDP>', '<MDP>p&amp;amp;w</MDP>');
    const p = readSources(parseConfig(stored)) as TSectionPayloadNormal<'sources'>;
    p.sources[0]!.MDP = 'p&w';
    const out = editSources(stored, p);
    expect(out).toContain('<MDP>p&amp;w</MDP>');
    // Typed exactly as stored: nothing changes.
    p.sources[0]!.MDP = 'p&amp;w';
    expect(editSources(stored, p)).toBe(stored);
  });

  it('changes only Sources, encodes and escapes once, keeps connector nodes', () => {
    const p = sources();
    p.sources[0]!.Serveur = 'Sérveur & <co> "x"';
    p.sources[0]!.MDP = 'Demo-75e469'; // typed again: a kept password cannot move
    p.sources[0]!.Lecture_Seule = true;
    p.sources[2]!.Provider = 'WinDevHF7';
    p.sources[2]!.Nom_BDD = 'Société';
    const out = editSources(FIXTURE, p);
    expectOnlySectionChanged(FIXTURE, out, 'Sources');
    expect(out).toContain('<Serveur>SÃ©rveur &amp; &lt;co&gt; "x"</Serveur>');
    expect(out).toContain('<Lecture_Seule>1</Lecture_Seule>');
    const back = readSources(parseConfig(out)).sources;
    expect(back[0]).toMatchObject({
      Serveur: 'Sérveur & <co> "x"',
      Lecture_Seule: true,
      Status: 1,
      StatusLibelle: ' Ok : SQL',
    });
    expect(back[2]).toMatchObject({ Provider: 'WinDevHF7', Nom_BDD: 'Société' });
    // connector nodes of every block stay
    const before = parseConfig(FIXTURE).section('Sources')!;
    const after = parseConfig(out).section('Sources')!;
    expect(sectionOf(out, 'Sources/Source/Tokens')).toBe(sectionOf(FIXTURE, 'Sources/Source/Tokens'));
    expect(out.match(/<Tokens>/g)).toHaveLength(4);
    expect(out).toContain('<Status>1</Status>');
    expect(before.children.length).toBe(after.children.length);
  });

  it('the placeholder keeps the stored password; a new one replaces it; empty clears it', () => {
    const p = sources();
    expect(p.sources[0]!.MDP).toBe(SECRET_PLACEHOLDER);
    expect(editSources(FIXTURE, p)).toContain('<MDP>Demo-75e469</MDP>');
    p.sources[0]!.MDP = 'Nouveau-é';
    expect(editSources(FIXTURE, p)).toContain('<MDP>Nouveau-Ã©</MDP>');
    p.sources[0]!.MDP = '';
    expect(editSources(FIXTURE, p)).not.toContain('Demo-75e469');
  });

  it('accepts the legacy switch forms', () => {
    const p = sources();
    const loose = {
      sources: p.sources.map((s, i) => ({ ...s, Lecture_Seule: (['1', 0, 'false', true] as const)[i]! })),
    };
    const back = readSources(parseConfig(editSources(FIXTURE, loose))).sources;
    expect(back.map((s) => s.Lecture_Seule)).toEqual([true, false, false, true]);
  });

  it('creates missing blocks up to the last non-empty one', () => {
    const text =
      '<?xml version="1.0"?>\r\n<Connexion>\r\n  <Sources>\r\n    <Source>\r\n      <Provider>CLOUD</Provider>\r\n    </Source>\r\n  </Sources>\r\n</Connexion>\r\n';
    const p = { sources: [...readSources(parseConfig(text)).sources] };
    p.sources[2] = { ...p.sources[2]!, Provider: 'MSDASQL', Serveur: 'srv' };
    const out = editSources(text, p);
    expect(
      parseConfig(out)
        .section('Sources')!
        .children.filter((k) => k.kind === 1),
    ).toHaveLength(3);
    expect(out).toContain(
      '    <Source>\r\n      <Provider>MSDASQL</Provider>\r\n      <Serveur>srv</Serveur>\r\n      <Nom_BDD/>',
    );
    expect(readSources(parseConfig(out)).sources[2]).toMatchObject({
      Provider: 'MSDASQL',
      Serveur: 'srv',
      Lecture_Seule: false,
    });
  });

  it('refuses invalid payloads before any change, with French messages', () => {
    const err = fails(() => editSources(FIXTURE, { sources: [{ Provider: 3 }] } as never), 'invalid-payload');
    expect(err.message).toMatch(/Données invalides/);
    expect(err.issues?.[0]).toEqual({ path: 'sources.0.Provider', message: 'Texte attendu' });
    fails(
      () => editSources(FIXTURE, { sources: [{ ...sources().sources[0]!, Serveur: 'a\u0001' }] }),
      'invalid-payload',
    );
    // a line break is accepted (a value stored with one must be able to go back unchanged)
    const nl = editSources(FIXTURE, { sources: [{ ...sources().sources[0]!, Serveur: 'a\nb', MDP: 'x' }] });
    expect(readSources(parseConfig(nl)).sources[0]!.Serveur).toBe('a\nb');
    fails(() => editSources('<Connexion><Sources>', sources()), 'truncated');
  });
});

describe('editExternalLinks', () => {
  it('changes folders and links, keeps the Agenda, placeholder keeps the password', () => {
    const p = links();
    p.Dossier_Import = 'D:\\Import é';
    p.Liaisons[1]!.Utilisateur = 'Éric';
    p.Liaisons[1]!.Logiciel = 'C:\\x.exe';
    const out = editExternalLinks(FIXTURE, p);
    expectOnlySectionChanged(FIXTURE, out, 'Liaisons_Externes');
    expect(sectionOf(out, 'Liaisons_Externes/Agenda')).toBe(sectionOf(FIXTURE, 'Liaisons_Externes/Agenda'));
    expect(out).toContain('<MDP>Demo-9a2289</MDP>');
    const back = readExternalLinks(parseConfig(out));
    expect(back.Dossier_Import).toBe('D:\\Import é');
    expect(back.Liaisons[0]).toMatchObject({ MDP: SECRET_PLACEHOLDER });
    expect(back.Liaisons[1]).toMatchObject({ Utilisateur: 'Éric', Logiciel: 'C:\\x.exe' });
  });

  it('a kept password cannot change destination: refused before any change, naming the row', () => {
    for (const field of ['Logiciel', 'Config', 'Utilisateur'] as const) {
      const p = links();
      p.Liaisons[0]![field] = 'ailleurs';
      const err = fails(() => editExternalLinks(FIXTURE, p), 'secret-destination');
      expect(err.issues?.map((i) => i.path)).toEqual(['Liaisons.0.MDP']);
      expect(err.message).toMatch(
        /^Logiciel maître 1\u00a0: .+ a changé, saisissez à nouveau le mot de passe\./,
      );
      p.Liaisons[0]!.MDP = 'retape';
      expect(editExternalLinks(FIXTURE, p)).toContain('<MDP>retape</MDP>');
    }
  });
});

describe('editExternalCalendars', () => {
  it('changes type and rows, keeps the Token and the links', () => {
    const p = calendars();
    p.agendaType = 'Microsoft';
    p.mappings[1] = { ID_Salarie: 'CO00006', ID_Agenda: 'cal@exemple.fr' };
    p.mappings[0] = { ID_Salarie: '', ID_Agenda: '' };
    const out = editExternalCalendars(FIXTURE, p);
    expectOnlySectionChanged(FIXTURE, out, 'Liaisons_Externes');
    expect(sectionOf(out, 'Liaisons_Externes/Agenda/Token')).toBe(
      sectionOf(FIXTURE, 'Liaisons_Externes/Agenda/Token'),
    );
    expect(sectionOf(out, 'Liaisons_Externes/Liaisons')).toBe(
      sectionOf(FIXTURE, 'Liaisons_Externes/Liaisons'),
    );
    const back = readExternalCalendars(parseConfig(out));
    expect(back.agendaType).toBe('Microsoft');
    expect(back.mappings.slice(0, 3)).toEqual([
      { ID_Salarie: '-1', ID_Agenda: '-1' },
      { ID_Salarie: 'CO00006', ID_Agenda: 'cal@exemple.fr' },
      { ID_Salarie: '-1', ID_Agenda: '-1' },
    ]);
    expect(out).toContain('<ID_Salarie>-1</ID_Salarie>\r\n          <ID_Agenda>-1</ID_Agenda>');
  });

  it('removes rows the payload drops and adds assigned ones', () => {
    const p = calendars();
    const fewer = editExternalCalendars(FIXTURE, { ...p, mappings: p.mappings.slice(0, 3) });
    expect(readExternalCalendars(parseConfig(fewer)).mappings).toHaveLength(3);
    const more = [
      ...p.mappings,
      { ID_Salarie: '-1', ID_Agenda: '-1' },
      { ID_Salarie: 'CO00002', ID_Agenda: 'x' },
    ];
    const out = editExternalCalendars(FIXTURE, { ...p, mappings: more });
    expect(readExternalCalendars(parseConfig(out)).mappings).toEqual(more);
    // trailing free rows beyond the stored ones are not created
    const padded = editExternalCalendars(FIXTURE, {
      ...p,
      mappings: [...p.mappings, { ID_Salarie: '', ID_Agenda: '' }],
    });
    expect(padded).toBe(FIXTURE);
  });

  it('refuses an unknown agenda type', () => {
    const err = fails(
      () => editExternalCalendars(FIXTURE, { agendaType: 'Yahoo' as never, mappings: [] }),
      'invalid-payload',
    );
    expect(err.message).toMatch(/Google/);
  });

  it('keeps a stored type outside the list when it comes back: the rows still save', () => {
    const stored = editExternalCalendars(FIXTURE, { ...calendars(), agendaType: 'Google' }).replace(
      '<Type_Agenda>Google</Type_Agenda>',
      '<Type_Agenda>Outlook</Type_Agenda>',
    );
    const p = readExternalCalendars(parseConfig(stored));
    expect(p.agendaType).toBe('Outlook');
    p.mappings[0] = { ID_Salarie: 'CO00006', ID_Agenda: 'x' };
    const out = editExternalCalendars(stored, { ...p, agendaType: p.agendaType as 'Google' });
    expect(readExternalCalendars(parseConfig(out))).toMatchObject({
      agendaType: 'Outlook',
      mappings: expect.arrayContaining([{ ID_Salarie: 'CO00006', ID_Agenda: 'x' }]),
    });
    // Another unknown type is still refused; a listed one replaces it.
    fails(() => editExternalCalendars(stored, { ...p, agendaType: 'Yahoo' as never }), 'invalid-payload');
    const listed = editExternalCalendars(stored, { ...p, agendaType: 'Microsoft' });
    expect(readExternalCalendars(parseConfig(listed)).agendaType).toBe('Microsoft');
  });
});

describe('editSyncData', () => {
  it('updates Complete and Histo by Reference, keeps labels and artefacts', () => {
    const p = structuredClone(readSyncData(doc));
    const affaire = p.syncData.find((d) => d.Reference === 'AFFAIRE')!;
    affaire.Histo = 30;
    affaire.Complete = false;
    const out = editSyncData(FIXTURE, p);
    expectOnlySectionChanged(FIXTURE, out, 'Donnees_A_Synchroniser');
    expect(out).toContain(
      '<Reference>AFFAIRE</Reference>\r\n      <Complete>0</Complete>\r\n      <Libelle>Affaires</Libelle>\r\n      <Histo>30</Histo>',
    );
    expect(out).toContain('GED Doc d&amp;apos;achat'); // untouched item keeps its stored bytes
    const back = readSyncData(parseConfig(out)).syncData.find((d) => d.Reference === 'AFFAIRE');
    expect(back).toMatchObject({ Complete: false, Histo: 30 });
  });

  it('adds an unknown Reference, accepts string numbers, refuses out-of-range history', () => {
    const out = editSyncData(FIXTURE, {
      syncData: [{ Reference: 'NOUVEAU', Complete: '1', Libelle: 'Données été', Histo: '12' }],
    });
    const back = readSyncData(parseConfig(out)).syncData.at(-1);
    expect(back).toMatchObject({ Reference: 'NOUVEAU', Complete: true, Libelle: 'Données été', Histo: 12 });
    const err = fails(
      () => editSyncData(FIXTURE, { syncData: [{ Reference: 'A', Complete: 1, Libelle: '', Histo: 10001 }] }),
      'invalid-payload',
    );
    expect(err.message).toMatch(/10000/);
    fails(
      () => editSyncData(FIXTURE, { syncData: [{ Reference: 'A', Complete: 1, Libelle: '', Histo: '1.5' }] }),
      'invalid-payload',
    );
  });
});

describe('editExclusions', () => {
  it('keeps NuxiSavOnLine, removes, adds and relabels by id', () => {
    const p = structuredClone(readExclusions(doc));
    const kept = p.exclusions.filter((e) => e.id !== 'CHAUFFAGE|' && e.type !== 'SupplierFamily');
    kept.push({ id: 'FCL00001|', libelle: 'Autres é', type: 'CustomerFamily' });
    kept.push({ id: 'FA00006', libelle: 'Fournitures', type: 'ItemFamily' });
    const out = editExclusions(FIXTURE, { exclusions: kept });
    expectOnlySectionChanged(FIXTURE, out, 'Exclusions');
    expect(out).toContain('<Type>NuxiSavOnLine</Type>');
    expect(out).toContain('ComitÃ©s d&amp;apos;entreprise	Entreprises EtrangÃ¨res'); // untouched
    const back = readExclusions(parseConfig(out)).exclusions;
    const key = (e: { id: string; type: string; libelle: string }) => `${e.type}:${e.id}:${e.libelle}`;
    expect(back.map(key).sort()).toEqual(
      kept
        .map((e) => ({ ...e, id: e.id.includes('|') ? e.id : `${e.id}|` }))
        .map(key)
        .sort(),
    );
    expect(out).toContain(
      '<Code>FA00006|</Code>\r\n          <IDInterne>FA00006|</IDInterne>\r\n          <Libelle>Fournitures</Libelle>',
    );
    expect(out).toContain('<Type>SupplierFamily</Type>\r\n      <Valeurs>\r\n      </Valeurs>');
  });

  it('creates the Exclusion of a type at its place', () => {
    const text =
      '<Connexion>\n  <Exclusions>\n    <Exclusion>\n      <Type>NuxiSavOnLine</Type>\n    </Exclusion>\n  </Exclusions>\n</Connexion>\n';
    const out = editExclusions(text, { exclusions: [{ id: 'A|b', libelle: 'x', type: 'CustomerFamily' }] });
    expect(out).toBe(
      '<Connexion>\n  <Exclusions>\n    <Exclusion>\n      <Type>CustomerFamily</Type>\n      <Valeurs>\n        <Valeur>\n          <Code>A|b</Code>\n          <IDInterne>A|b</IDInterne>\n          <Libelle>x</Libelle>\n        </Valeur>\n      </Valeurs>\n    </Exclusion>\n    <Exclusion>\n      <Type>NuxiSavOnLine</Type>\n    </Exclusion>\n  </Exclusions>\n</Connexion>\n',
    );
  });

  it('refuses bad ids and types', () => {
    fails(
      () => editExclusions(FIXTURE, { exclusions: [{ id: 'a|b|c', libelle: '', type: 'ItemFamily' }] }),
      'invalid-payload',
    );
    fails(
      () =>
        editExclusions(FIXTURE, { exclusions: [{ id: 'a|', libelle: '', type: 'NuxiSavOnLine' as never }] }),
      'invalid-payload',
    );
  });
});

describe('editComplement', () => {
  it('changes its fields, keeps EspaceClient, writes the script with &#13; and CRLF', () => {
    const p = complement();
    p.googleApiKey = 'clé';
    p.driveType = 'onedrive';
    p.mailRapport.envoyerRapport = true;
    p.mailRapport.mailDestinataire = 'léa@exemple.fr';
    p.scriptComplementaire = 'A=1\nB=é';
    const out = editComplement(FIXTURE, p);
    expectOnlySectionChanged(FIXTURE, out, 'Complement');
    expect(sectionOf(out, 'Complement/EspaceClient')).toBe(sectionOf(FIXTURE, 'Complement/EspaceClient'));
    expect(out).toContain('<ScriptComplementaire>A=1&#13;\r\nB=Ã©</ScriptComplementaire>');
    expect(out).toContain('<Drive>\r\n      <Type_Drive>onedrive</Type_Drive>\r\n    </Drive>');
    expect(out).toContain('<APIKey_Google>clÃ©</APIKey_Google>');
    expect(readComplement(parseConfig(out))).toEqual({ ...p, googleApiKey: SECRET_PLACEHOLDER });
  });

  it('the geocoding key is a secret: shown as the placeholder, kept when it comes back, cleared by ""', () => {
    const p = complement();
    expect(p.googleApiKey).toBe(SECRET_PLACEHOLDER);
    p.driveType = 'google';
    const kept = editComplement(FIXTURE, p);
    expect(kept).toContain('<APIKey_Google>api.gouv.fr</APIKey_Google>');
    expect(kept).not.toBe(FIXTURE);
    const cleared = editComplement(FIXTURE, { ...p, googleApiKey: '' });
    expect(cleared).not.toContain('api.gouv.fr');
    expect(readComplement(parseConfig(cleared)).googleApiKey).toBe('');
  });

  it('refuses changed addresses that are malformed or more than 20; a stored value comes back as it is', () => {
    const p = complement();
    const many = Array.from({ length: 21 }, (_, i) => `a${i}@exemple.fr`).join(';');
    const tooMany = fails(
      () => editComplement(FIXTURE, { ...p, mailRapport: { ...p.mailRapport, mailDestinataire: many } }),
      'invalid-payload',
    );
    expect(tooMany.message).toContain('Au plus 20 adresses.');
    const malformed = fails(
      () =>
        editComplement(FIXTURE, { ...p, mailRapport: { ...p.mailRapport, mailDestinataire: 'lea@exemple' } }),
      'invalid-payload',
    );
    expect(malformed.message).toContain('Adresse email invalide');
    // A stored value the rules would refuse (an older tool's) still saves back unchanged.
    const stored = editComplement(FIXTURE, {
      ...p,
      mailRapport: { ...p.mailRapport, mailDestinataire: 'lea@exemple.fr' },
    }).replace('lea@exemple.fr', 'pas une adresse');
    const back = readComplement(parseConfig(stored)) as TSectionPayloadNormal<'complement'>;
    expect(back.mailRapport.mailDestinataire).toBe('pas une adresse');
    expect(editComplement(stored, { ...back, scriptComplementaire: 'X=1' })).toContain('pas une adresse');
  });

  it('keeps a stored drive type outside the list when it comes back; refuses another', () => {
    const stored = editComplement(FIXTURE, { ...complement(), driveType: 'google' }).replace(
      '<Type_Drive>google</Type_Drive>',
      '<Type_Drive>dropbox</Type_Drive>',
    );
    const p = readComplement(parseConfig(stored)) as TSectionPayloadNormal<'complement'>;
    expect(p.driveType).toBe('dropbox');
    p.mailRapport.mailDestinataire = 'lea@exemple.fr';
    const out = editComplement(stored, p);
    expect(readComplement(parseConfig(out))).toMatchObject({
      driveType: 'dropbox',
      mailRapport: { mailDestinataire: 'lea@exemple.fr' },
    });
    const err = fails(() => editComplement(stored, { ...p, driveType: 'box' as never }), 'invalid-payload');
    expect(err.message).toMatch(/onedrive/);
    expect(readComplement(parseConfig(editComplement(stored, { ...p, driveType: 'none' }))).driveType).toBe(
      'none',
    );
  });

  it('a script sent with CRLF is the same script', () => {
    const p = complement();
    p.scriptComplementaire = p.scriptComplementaire.replace(/\n/g, '\r\n');
    expect(editComplement(FIXTURE, p)).toBe(FIXTURE);
  });
});

describe('editPlanifications', () => {
  it('writes plannings and the time zone; the counts follow', () => {
    const out = editPlanifications(FIXTURE, {
      plannings: [
        { day: 8, time: '00:00', type: 'C' },
        { day: '1' as never, time: '12:15', type: 'R' },
        { day: 7, time: '23:45', type: 'I' },
      ],
      xmlInfo: { exe: 'x', serial: 'y' },
      timeZone: { value: 'GMT+2', label: 'Europe/Helsinki' },
    });
    expectOnlySectionChanged(FIXTURE, out, 'Planifications');
    const d = parseConfig(out);
    expect(readPlanifications(d)).toEqual({
      timeZone: 'Europe/Helsinki',
      timeZoneOffset: '+02:00',
      plannings: [
        { day: 8, time: '00:00', type: 'C' },
        { day: 1, time: '12:15', type: 'R' },
        { day: 7, time: '23:45', type: 'I' },
      ],
    });
    expect(countPlannings(d)).toEqual({ C: 1, R: 1, I: 1 });
    const fewer = editPlanifications(out, { plannings: [{ day: 2, time: '08:00', type: 'R' }] });
    expect(readPlanifications(parseConfig(fewer)).plannings).toEqual([{ day: 2, time: '08:00', type: 'R' }]);
    expect(readPlanifications(parseConfig(fewer)).timeZone).toBe('Europe/Helsinki');
  });

  it('refuses bad days, times, types and offsets', () => {
    fails(
      () => editPlanifications(FIXTURE, { plannings: [{ day: 9, time: '00:00', type: 'C' }] }),
      'invalid-payload',
    );
    fails(
      () => editPlanifications(FIXTURE, { plannings: [{ day: 1, time: '24:00', type: 'C' }] }),
      'invalid-payload',
    );
    fails(
      () => editPlanifications(FIXTURE, { plannings: [{ day: 1, time: '00:00', type: 'X' as never }] }),
      'invalid-payload',
    );
    fails(
      () =>
        editPlanifications(FIXTURE, { plannings: [], timeZone: { value: 'Paris', label: 'Europe/Paris' } }),
      'invalid-payload',
    );
  });

  it('creates a missing Planifications section at its legacy place with the document style', () => {
    const noPlan = FIXTURE.replace(/ {2}<Planifications>[\s\S]*?<\/Planifications>\r\n/, '');
    expect(noPlan).not.toContain('Planifications');
    const out = editPlanifications(noPlan, {
      plannings: [{ day: 3, time: '06:30', type: 'I' }],
      timeZone: { value: '+01:00', label: 'Europe/Paris' },
    });
    expectOnlySectionChanged(noPlan, out, 'Planifications');
    expect(parseConfig(out).layout.sections.map((s) => s.name)).toEqual(
      parseConfig(FIXTURE).layout.sections.map((s) => s.name),
    );
    expect(out).toContain(
      '  </Liaisons_Externes>\r\n  <Planifications>\r\n    <FuseauHoraire>Europe/Paris</FuseauHoraire>\r\n    <FuseauHoraireValeur>+01:00</FuseauHoraireValeur>\r\n    <Planning>\r\n      <Jour>3</Jour>\r\n      <Heure>06:30</Heure>\r\n      <Ordre>I</Ordre>\r\n    </Planning>\r\n  </Planifications>\r\n  <Info>',
    );
  });
});

describe('editTerminal', () => {
  it('renames with accents, changes ids; only Terminaux changes', () => {
    const t = terminal(1);
    t.Nom = 'Poste Élodie';
    t.ID_Smartphone = 'abc';
    const out = editTerminal(FIXTURE, 1, t);
    expectOnlySectionChanged(FIXTURE, out, 'Terminaux');
    const back = readTerminals(parseConfig(out)).terminals[1]!;
    expect(back).toMatchObject({ Nom: 'Poste Élodie', ID_Smartphone: 'abc', ID_Tablette: '7047d7410' });
    // other terminals byte-identical
    const others = (s: string) => {
      const d = parseConfig(s);
      const sec = d.section('Terminaux')!;
      return sec.children
        .filter((k) => k.kind === 1)
        .map((k) => s.slice(k.start, k.end))
        .filter((_, i) => i !== 1);
    };
    expect(others(out)).toEqual(others(FIXTURE));
  });

  it('technician and depot Code/Libelle follow the Data lists', () => {
    const t = terminal(0);
    t.technicienId = 'CO00003';
    t.depotId = 'b9630c69-90a5-4fac-b4a2-6ca3f9750fde';
    const out = editTerminal(FIXTURE, 0, t);
    expect(out).toContain(
      '<IDInterne>CO00003</IDInterne>\r\n            <Code>CO00003</Code>\r\n            <Libelle>GIRARD InÃ¨s</Libelle>',
    );
    expect(out).toContain(
      '<IDInterne>b9630c69-90a5-4fac-b4a2-6ca3f9750fde</IDInterne>\r\n            <Code>b9630c69-90a5-4fac-b4a2-6ca3f9750fde</Code>\r\n            <Libelle>Secondaire</Libelle>',
    );
    const cleared = editTerminal(FIXTURE, 0, { ...terminal(0), technicienId: '', depotId: 'none' });
    const back = readTerminals(parseConfig(cleared)).terminals[0]!;
    expect(back).toMatchObject({ technicienId: '', depotId: '' });
    expect(cleared).toContain(
      '<Technicien>\r\n            <IDInterne/>\r\n            <Code/>\r\n            <Libelle/>',
    );
    fails(() => editTerminal(FIXTURE, 0, { ...terminal(0), technicienId: 'NOPE' }), 'unknown-reference');
  });

  it('sets a technician on a terminal whose Technicien is empty', () => {
    const out = editTerminal(FIXTURE, 10, { ...terminal(10), technicienId: 'CO00006' });
    expect(readTerminals(parseConfig(out)).terminals[10]!.technicienId).toBe('CO00006');
    expect(out).toContain(
      '<IDInterne>CO00006</IDInterne>\r\n            <Code>CO00006</Code>\r\n            <Libelle>LEROY ChloÃ©</Libelle>',
    );
  });

  it('commercials: kept ones keep their Code, new ones get Code/Libelle from the salariés', () => {
    const text = FIXTURE.replace('<Code>CO00001</Code>', '<Code>SPECIAL</Code>');
    const t = structuredClone(readTerminals(parseConfig(text)).terminals[0]!);
    t.commerciaux = [
      { IDInterne: 'CO00001', Libelle: 'x' },
      { IDInterne: 'CO00005', Libelle: 'ignored' },
    ];
    const out = editTerminal(text, 0, t);
    expect(out).toContain('<Code>SPECIAL</Code>');
    expect(out).not.toContain('<IDInterne>CO00002</IDInterne>\r\n            <Code>CO00002</Code>');
    expect(out).toContain(
      '<IDInterne>CO00005</IDInterne>\r\n            <Code>CO00005</Code>\r\n            <Libelle>FAURE Claire</Libelle>',
    );
    expect(readTerminals(parseConfig(out)).terminals[0]!.commerciaux.map((c) => c.IDInterne)).toEqual([
      'CO00001',
      'CO00005',
    ]);
    fails(
      () => editTerminal(FIXTURE, 0, { ...terminal(0), commerciaux: [{ IDInterne: 'ZZZ', Libelle: '' }] }),
      'unknown-reference',
    );
  });

  it('authorisations and Autorisation_Longue follow (slot ID-1)', () => {
    const t = terminal(0);
    const byId = (id: string) => t.authorizations.find((a) => a.ID === id)!;
    byId('3').Autorise = 1;
    byId('53').Autorise = -1;
    const out = editTerminal(FIXTURE, 0, t);
    const d = parseConfig(out);
    const back = readTerminals(d).terminals[0]!;
    expect(back.authorizations).toEqual(t.authorizations);
    const longue = /<Autorisation_Longue>([^<]*)<\/Autorisation_Longue>/.exec(out)![1]!.split('|');
    expect(longue).toHaveLength(100);
    expect(longue[2]).toBe('1');
    expect(longue[52]).toBe('-1');
    for (const a of back.authorizations) expect(longue[Number(a.ID) - 1]).toBe(String(a.Autorise));
  });

  it('Tout Autoriser on an empty terminal adds the entries and fills Autorisation_Longue', () => {
    const t = terminal(12);
    for (const a of t.authorizations) a.Autorise = 1;
    const out = editTerminal(FIXTURE, 12, t);
    const back = readTerminals(parseConfig(out)).terminals[12]!;
    expect(back.authorizations.every((a) => a.Autorise === 1)).toBe(true);
    const sec = sectionOf(out, 'Terminaux')!;
    const term = sec.split('<Terminal>')[13]!;
    const longue = /<Autorisation_Longue>([^<]*)</.exec(term)![1]!.split('|');
    for (const a of back.authorizations) expect(longue[Number(a.ID) - 1]).toBe('1');
    expect(longue.filter((v) => v === '1')).toHaveLength(55);
    expect(term).toContain(
      '<Autorisation>\r\n          <ID>1</ID>\r\n          <Autorise>1</Autorise>\r\n          <Libelle>Clients / Prospects</Libelle>\r\n        </Autorisation>',
    );
  });

  it('a Libre name sent back keeps the stored name; index errors are refused', () => {
    const text = FIXTURE.replace('<Nom>Zebra</Nom>', '<Nom>ipad</Nom>');
    const t = structuredClone(readTerminals(parseConfig(text)).terminals[5]!);
    expect(t.Nom).toBe('Libre');
    expect(editTerminal(text, 5, t)).toBe(text);
    const err = fails(() => editTerminal(FIXTURE, 25, terminal(0)), 'terminal-index');
    expect(err.message).toBe('Impossible de déterminer le terminal à mettre à jour');
    fails(() => editTerminal(FIXTURE, -1, terminal(0)), 'terminal-index');
    fails(
      () =>
        editTerminal(FIXTURE, 0, {
          ...terminal(0),
          authorizations: [{ ID: '1', Autorise: 2 as never, Libelle: '' }],
        }),
      'invalid-payload',
    );
  });
});

describe('conflict helpers', () => {
  it('editScope ignores connector-written nodes and sees owned changes', () => {
    const connectorWrote = FIXTURE.replace('<Status>1</Status>', '<Status>0</Status>');
    expect(editScope(connectorWrote, 'sources')).toBe(editScope(FIXTURE, 'sources'));
    const p = sources();
    p.sources[1]!.Serveur = 'autre';
    expect(editScope(editSources(FIXTURE, p), 'sources')).not.toBe(editScope(FIXTURE, 'sources'));
    const cal = editExternalCalendars(FIXTURE, { ...calendars(), agendaType: 'Microsoft' });
    expect(editScope(cal, 'externalLinks')).toBe(editScope(FIXTURE, 'externalLinks'));
    expect(editScope(cal, 'externalCalendars')).not.toBe(editScope(FIXTURE, 'externalCalendars'));
    const t = editTerminal(FIXTURE, 2, { ...terminal(2), Nom: 'x' });
    expect(editScope(t, 'terminal', 1)).toBe(editScope(FIXTURE, 'terminal', 1));
    expect(editScope(t, 'terminal', 2)).not.toBe(editScope(FIXTURE, 'terminal', 2));
    expect(editScope(FIXTURE, 'planifications')).toBe(sectionOf(FIXTURE, 'Planifications'));
  });
});
