import fc from 'fast-check';
import type { TConnectorConfigPatchInput, TSectionPayloadNormal } from '@synchro/contracts';
import { describe, expect, it } from 'vitest';
import {
  CONNECTOR_OWNED,
  ConfigXmlError,
  EDIT_SECTION,
  editComplement,
  editConnectorParts,
  editExclusions,
  editExternalCalendars,
  editExternalLinks,
  editPlanifications,
  editScope,
  editSources,
  editSyncData,
  editTerminal,
  encodeConnectorText,
  parseConfig,
  readComplement,
  readDataLists,
  readExclusions,
  readExternalCalendars,
  readExternalLinks,
  readInfo,
  readLastSync,
  readPlanifications,
  readSources,
  readSyncData,
  readTerminals,
  type EditKind,
} from '../src/index.ts';
import { FIXTURE, spacedSelfClose, toLf, withBom } from './helpers.ts';

/** The contract's example (design/connector-api.md), with the Data of the fixture. */
const STORED_DATA = parseConfig(FIXTURE).sectionText('Data')!;
const EXAMPLE: TConnectorConfigPatchInput = {
  Info: {
    VersionConnecteur: '6.19.4',
    NuxiAutomateInstall: '1',
    NuxiAutomateLibelle: 'Version : 6.11.23.9',
    DateMAJConfig: '20251114093300664',
    Exe: 'C:\\Nuxilog\\Connecteur.exe',
    Serial: 'SER-1',
  },
  DerSynchro: {
    DateHeure: '20251114080952542',
    TypeDeSync: 'ComplÃ¨te',
    Duree: '00:04:11',
    DureeAlerte: '0',
    NbEnreg: '1838',
    Vitesse: '5927',
    Taille: '3,721 Mo',
    TailleAlerte: '0',
  },
  Sources: [{ index: 1, Status: '1', StatusLibelle: 'Cnx 1 Ok : SQL' }],
  Data: STORED_DATA.replace('</Data>', '  <NOUVEAU>Ã©tÃ©</NOUVEAU>\r\n  </Data>'),
};

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

/** Raw text of the first `path` element (`Info/Exe`), null when absent. */
function raw(text: string, path: string): string | null {
  const ix = parseConfig(text).index;
  const k = ix.path(0, path);
  return k < 0 ? null : ix.xmlText(k);
}

/**
 * The text without the nodes the connector owns (the first Info, DerSynchro and Data, and the
 * first Status and StatusLibelle of each Source of the first Sources), each with the line end and
 * indentation before it: equal before and after a connector write when nothing else changed.
 */
function withoutOwned(text: string): string {
  const ix = parseConfig(text).index;
  const owned: number[] = [];
  for (const name of ['Info', 'DerSynchro', 'Data']) owned.push(ix.child(0, name));
  for (const source of ix.children(ix.child(0, 'Sources'), 'Source')) {
    owned.push(ix.child(source, 'Status'), ix.child(source, 'StatusLibelle'));
  }
  const ranges = owned
    .filter((k) => k >= 0)
    .map((k) => {
      let start = ix.start[k]!;
      while (start > 0 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
      if (text[start - 1] === '\n') start--;
      if (text[start - 1] === '\r') start--;
      return [start, ix.end[k]!] as const;
    })
    .sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end] of ranges) {
    out += text.slice(at, start);
    at = end;
  }
  return out + text.slice(at);
}

/** The nodes the connector owns, as written (to compare what survives a console edit). */
function ownedParts(text: string): (string | null)[] {
  const doc = parseConfig(text);
  const ix = doc.index;
  const slice = (k: number): string | null => (k < 0 ? null : text.slice(ix.start[k], ix.end[k]));
  const parts = ['Info', 'DerSynchro', 'Data'].map((n) => slice(ix.child(0, n)));
  for (const source of ix.children(ix.child(0, 'Sources'), 'Source')) {
    parts.push(slice(ix.child(source, 'Status')), slice(ix.child(source, 'StatusLibelle')));
  }
  return parts;
}

const TERMINALS = readTerminals(parseConfig(FIXTURE)).terminals.length;

/** Every console conflict scope of a document (each terminal's included). */
function consoleScopes(text: string): string[] {
  const doc = parseConfig(text);
  const kinds = Object.keys(EDIT_SECTION) as EditKind[];
  const scopes = kinds.filter((k) => k !== 'terminal').map((k) => editScope(doc, k));
  for (let i = 0; i < TERMINALS; i++) scopes.push(editScope(doc, 'terminal', i));
  return scopes;
}

describe('the nodes the connector owns', () => {
  it('are Info/*, DerSynchro/*, the Status and StatusLibelle of each Source, and Data', () => {
    expect(CONNECTOR_OWNED).toEqual([
      'Info/*',
      'DerSynchro/*',
      'Sources/Source/Status',
      'Sources/Source/StatusLibelle',
      'Data',
    ]);
    const out = editConnectorParts(FIXTURE, EXAMPLE);
    expect(withoutOwned(out)).toBe(withoutOwned(FIXTURE));
    expect(ownedParts(out)).not.toEqual(ownedParts(FIXTURE));
  });

  it('are in none of the console conflict scopes', () => {
    const out = editConnectorParts(FIXTURE, EXAMPLE);
    expect(consoleScopes(out)).toEqual(consoleScopes(FIXTURE));
  });
});

describe('editConnectorParts', () => {
  it('writes the contract example: values as the connector wrote them, new nodes at their place', () => {
    const out = editConnectorParts(FIXTURE, EXAMPLE);
    const doc = parseConfig(out);
    expect(readInfo(doc)).toMatchObject({ connectorVersion: '6.19.4', exe: 'C:\\Nuxilog\\Connecteur.exe' });
    expect(readLastSync(doc)).toMatchObject({
      type: 'Complète',
      dateHeure: '20251114080952542',
      volumeAlert: false,
    });
    // Written as is: not encoded a second time.
    expect(raw(out, 'DerSynchro/TypeDeSync')).toBe('ComplÃ¨te');
    expect(raw(out, 'Sources/Source/StatusLibelle')).toBe('Cnx 1 Ok : SQL');
    expect(doc.sectionText('Data')).toBe(EXAMPLE.Data);
    // VersionConnecteur after DateMAJConfig; DureeAlerte after Duree; TailleAlerte after Taille.
    expect(doc.sectionText('Info')).toContain(
      '<DateMAJConfig>20251114093300664</DateMAJConfig>\r\n    <VersionConnecteur>6.19.4</VersionConnecteur>\r\n  </Info>',
    );
    expect(doc.sectionText('DerSynchro')).toContain(
      '<Duree>00:04:11</Duree>\r\n    <DureeAlerte>0</DureeAlerte>\r\n    <NbEnreg>',
    );
    expect(doc.sectionText('DerSynchro')).toContain(
      '<Taille>3,721 Mo</Taille>\r\n    <TailleAlerte>0</TailleAlerte>',
    );
    // The new Data lists are what the console reads now.
    expect(readDataLists(doc)).toEqual(readDataLists(parseConfig(FIXTURE)));
  });

  it('escapes once and keeps line ends, names the legacy order lacks go last', () => {
    const out = editConnectorParts(FIXTURE, {
      Info: { Serial: 'a & b < c > d', Nouveau: 'x' },
      DerSynchro: { Duree: 'l1\r\nl2' },
    });
    expect(parseConfig(out).sectionText('Info')).toContain('<Serial>a &amp; b &lt; c &gt; d</Serial>');
    expect(parseConfig(out).sectionText('Info')).toMatch(
      /<DateMAJConfig>\d+<\/DateMAJConfig>\r\n {4}<Nouveau>x<\/Nouveau>\r\n {2}<\/Info>/,
    );
    expect(raw(out, 'Info/Serial')).toBe('a & b < c > d');
    expect(raw(out, 'DerSynchro/Duree')).toBe('l1\r\nl2');
    expect(editConnectorParts(out, { DerSynchro: { Duree: 'l1\r\nl2' } })).toBe(out);
  });

  it('gives the same text back when nothing changes', () => {
    for (const text of [FIXTURE, withBom(FIXTURE), toLf(FIXTURE), spacedSelfClose(FIXTURE)]) {
      const doc = parseConfig(text);
      const same: TConnectorConfigPatchInput = {
        Info: { Exe: raw(text, 'Info/Exe')!, DateMAJConfig: raw(text, 'Info/DateMAJConfig')! },
        DerSynchro: { TypeDeSync: raw(text, 'DerSynchro/TypeDeSync')! },
        Sources: [{ index: 1, Status: raw(text, 'Sources/Source/Status')! }],
        Data: doc.sectionText('Data')!,
      };
      expect(editConnectorParts(text, same)).toBe(text);
      expect(editConnectorParts(doc, {})).toBe(text);
      expect(editConnectorParts(text, { Info: {}, Sources: [] })).toBe(text);
    }
  });

  it('sets the status of the source at a 1-based index, creating Status at its place', () => {
    const withoutStatus = FIXTURE.replace(/\r\n\s*<Status>[^<]*<\/Status>/, '');
    expect(raw(withoutStatus, 'Sources/Source/Status')).toBeNull();
    const out = editConnectorParts(withoutStatus, {
      Sources: [
        { index: 1, Status: '0' },
        { index: 3, StatusLibelle: 'Cnx 3 : échec' },
      ],
    });
    expect(out).toContain('</Tokens>\r\n      <Status>0</Status>\r\n      <StatusLibelle>');
    const sources = parseConfig(out).index;
    const third = sources.children(sources.child(0, 'Sources'), 'Source')[2]!;
    expect(sources.childValue(third, 'StatusLibelle')).toBe('Cnx 3 : échec');
    expect(withoutOwned(out)).toBe(withoutOwned(withoutStatus));
  });

  it('refuses an index beyond the stored sources, naming it, before any change', () => {
    const err = fails(
      () =>
        editConnectorParts(FIXTURE, {
          Info: { Exe: 'x' },
          Sources: [{ index: 1 }, { index: 5, Status: '1' }],
        }),
      'source-index',
    );
    expect(err.message).toBe(
      'Sources[1].index\u00a0: la source 5 n’existe pas (la configuration en compte 4).',
    );
  });

  it('refuses an invalid patch with the schema messages', () => {
    const err = fails(() => editConnectorParts(FIXTURE, { Info: { '1x': 'y' } } as never), 'invalid-payload');
    expect(err.issues).toEqual([{ path: 'Info.1x', message: 'nom d’élément invalide sous Info' }]);
  });

  it('creates missing Info, DerSynchro and Data sections at their legacy place', () => {
    const bare = FIXTURE.replace(/\r\n {2}<Info>[\s\S]*?<\/Data>/, '');
    expect(parseConfig(bare).range('Info')).toBeNull();
    const out = editConnectorParts(bare, {
      Info: { VersionConnecteur: '6.19.4' },
      DerSynchro: { NbEnreg: '3' },
      Data: '<Data><SALARIES/></Data>',
    });
    expect(out).toContain(
      '</Planifications>\r\n  <Info>\r\n    <VersionConnecteur>6.19.4</VersionConnecteur>\r\n  </Info>\r\n' +
        '  <DerSynchro>\r\n    <NbEnreg>3</NbEnreg>\r\n  </DerSynchro>\r\n  <Data><SALARIES/></Data>\r\n  <Donnees_A_Synchroniser>',
    );
    expect(withoutOwned(out)).toBe(withoutOwned(bare));
  });

  describe('Data: one safe <Data> element, else refused and nothing changed', () => {
    const refuse = (data: string, code: string): string => {
      const err = fails(() => editConnectorParts(FIXTURE, { Info: { Exe: 'changed' }, Data: data }), code);
      expect(err.message.startsWith('Data\u00a0: ')).toBe(true);
      return err.message;
    };

    it('accepts blanks around the element and writes the element only', () => {
      const out = editConnectorParts(FIXTURE, { Data: '\r\n  <Data><A>1</A></Data>\r\n' });
      expect(parseConfig(out).sectionText('Data')).toBe('<Data><A>1</A></Data>');
    });

    it('refuses what the configuration scanner refuses, with the place of the fault', () => {
      refuse('<!DOCTYPE Data [<!ENTITY x "y">]><Data>&x;</Data>', 'doctype');
      expect(refuse('<Data>\n  <A>&nbsp;</A>\n</Data>', 'entity')).toContain('(ligne 2, colonne 6)');
      refuse('<Data><A>\u0001</A></Data>', 'invalid-char');
      refuse('<Data><A></Data>', 'mismatched-tag');
      refuse('<Data>', 'truncated');
      refuse(`<Data>${'<a>'.repeat(256)}${'</a>'.repeat(256)}</Data>`, 'depth');
      expect(refuse('<Donnees/>', 'root')).toBe(
        'Data\u00a0: L’élément racine doit être <Data>, pas <Donnees> (ligne 1, colonne 1)',
      );
      refuse('<Data/><Data/>', 'malformed');
      // Blank: the patch schema refuses it already.
      fails(() => editConnectorParts(FIXTURE, { Data: '  ' }), 'invalid-payload');
    });

    it('counts depth as the document will: one level more than the Data text alone', () => {
      const nested = (n: number): string => `<Data>${'<a>'.repeat(n)}${'</a>'.repeat(n)}</Data>`;
      const range = parseConfig(FIXTURE).range('Data')!;
      const placed = (data: string): string =>
        FIXTURE.slice(0, range.start) + data + FIXTURE.slice(range.end);
      // The configuration scanner's own verdict on the same documents.
      expect(() => parseConfig(placed(nested(254)))).not.toThrow();
      expect(() => parseConfig(placed(nested(255)))).toThrow(/trop profond/);
      expect(editConnectorParts(FIXTURE, { Data: nested(254) })).toBe(placed(nested(254)));
      expect(refuse(nested(255), 'depth')).toBe(
        'Data\u00a0: le document est trop profond (plus de 256 niveaux) (ligne 1, colonne 769)',
      );
    });

    it('refuses anything around the element', () => {
      for (const data of [
        '<?xml version="1.0"?><Data/>',
        '<!-- x --><Data/>',
        '<Data/><?pi x?>',
        '\uFEFF<Data/>',
      ]) {
        expect(refuse(data, 'malformed')).toBe(
          'Data\u00a0: seul l’élément <Data> est attendu, sans déclaration XML, commentaire ni instruction autour.',
        );
      }
    });

    it('refuses more than 50 MB, and a document that would exceed the configuration limit', () => {
      const fifty = 50 * 1024 * 1024;
      fails(
        () => editConnectorParts(FIXTURE, { Data: `<Data>${'é'.repeat(fifty / 2)}</Data>` }),
        'invalid-payload',
      );
      const nearLimit = `<Data>${'a'.repeat(fifty - 13)}</Data>`;
      const big = FIXTURE.replace('<Complement>', `<!--${'x'.repeat(11 * 1024 * 1024)}--><Complement>`);
      expect(() => editConnectorParts(big, { Data: nearLimit })).toThrow(
        /Le document de configuration est trop volumineux/,
      );
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Console edits and connector writes, in either order.

const fixtureDoc = parseConfig(FIXTURE);

/** One changing save of each console edit kind. */
const CONSOLE_EDITS: [string, (text: string) => string][] = [
  [
    'sources',
    (t) => {
      const p = structuredClone(readSources(fixtureDoc));
      p.sources[1]!.Serveur = 'srv-console'; // source 2 holds no password: it may move
      return editSources(t, p);
    },
  ],
  [
    'externalLinks',
    (t) =>
      editExternalLinks(t, {
        ...structuredClone(readExternalLinks(fixtureDoc)),
        Dossier_Import: 'C:\\Import é',
      }),
  ],
  [
    'externalCalendars',
    (t) => {
      const v = readExternalCalendars(fixtureDoc);
      return editExternalCalendars(t, { agendaType: 'Microsoft', mappings: structuredClone(v.mappings) });
    },
  ],
  [
    'syncData',
    (t) => {
      const p = structuredClone(readSyncData(fixtureDoc));
      p.syncData[0]!.Complete = !p.syncData[0]!.Complete;
      return editSyncData(t, p);
    },
  ],
  [
    'exclusions',
    (t) => {
      const p = structuredClone(readExclusions(fixtureDoc));
      p.exclusions.pop();
      return editExclusions(t, p);
    },
  ],
  [
    'complement',
    (t) =>
      editComplement(t, {
        ...(structuredClone(readComplement(fixtureDoc)) as TSectionPayloadNormal<'complement'>),
        googleApiKey: 'clé-console',
      }),
  ],
  [
    'planifications',
    (t) => {
      const p = readPlanifications(fixtureDoc);
      return editPlanifications(t, {
        plannings: [{ day: 8, time: '06:15', type: 'C' }],
        timeZone: { value: p.timeZoneOffset, label: p.timeZone },
      });
    },
  ],
  [
    'terminal',
    (t) => {
      const terminal = structuredClone(readTerminals(fixtureDoc).terminals[2]!);
      return editTerminal(t, 2, { ...terminal, Nom: 'Tablette console' });
    },
  ],
];

describe('a console save and a connector write, in either order', () => {
  it.each(CONSOLE_EDITS)('%s: both survive and the order does not matter', (_kind, consoleEdit) => {
    const connectorFirst = consoleEdit(editConnectorParts(FIXTURE, EXAMPLE));
    const consoleFirst = editConnectorParts(consoleEdit(FIXTURE), EXAMPLE);
    expect(consoleFirst).toBe(connectorFirst);
    // The console edit kept every node the connector wrote...
    expect(ownedParts(connectorFirst)).toEqual(ownedParts(editConnectorParts(FIXTURE, EXAMPLE)));
    // ...and the connector write changed nothing the console had saved.
    expect(withoutOwned(consoleFirst)).toBe(withoutOwned(consoleEdit(FIXTURE)));
  });
});

// ---------------------------------------------------------------------------------------------
// Properties on random documents and random patches.

const SOURCES = readSources(fixtureDoc).sources.length;

/** Documents from the fixture: owned sections or statuses removed, LF, BOM, `<Tag />`. */
const documents = fc
  .record({
    drop: fc.subarray(['Info', 'DerSynchro', 'Data']),
    dropStatus: fc.boolean(),
    lf: fc.boolean(),
    bom: fc.boolean(),
    spaced: fc.boolean(),
  })
  .map(({ drop, dropStatus, lf, bom, spaced }) => {
    let text = FIXTURE;
    for (const name of drop) text = text.replace(new RegExp(`\\r\\n  <${name}>[\\s\\S]*?</${name}>`), '');
    if (dropStatus) text = text.replace(/\r\n\s*<Status>[^<]*<\/Status>/g, '');
    if (lf) text = toLf(text);
    if (spaced) text = spacedSelfClose(text);
    return bom ? withBom(text) : text;
  });

const CHARS = [
  'a',
  'Z',
  '7',
  ' ',
  ':',
  ',',
  '\\',
  'é',
  '€',
  '😀',
  '&',
  '<',
  '>',
  '"',
  "'",
  '\r\n',
  '\n',
  '\t',
];
const text = fc
  .array(fc.constantFrom(...CHARS), { maxLength: 12 })
  .map((a) => a.join(''))
  .chain((v) => fc.constantFrom(v, encodeConnectorText(v)));
const names = (known: readonly string[]) => fc.constantFrom(...known, 'Nouveau', 'Autre_Champ.2');
const children = (known: readonly string[]) =>
  fc.dictionary(names(known), text, { maxKeys: 5 }).map((d) => ({ ...d }));

const patches: fc.Arbitrary<TConnectorConfigPatchInput> = fc.record(
  {
    Info: children([
      'Exe',
      'Serial',
      'NuxiAutomateInstall',
      'NuxiAutomateLibelle',
      'DateMAJConfig',
      'VersionConnecteur',
    ]),
    DerSynchro: children(['TypeDeSync', 'DateHeure', 'Duree', 'DureeAlerte', 'NbEnreg', 'TailleAlerte']),
    Sources: fc.uniqueArray(
      fc.record(
        { index: fc.integer({ min: 1, max: SOURCES }), Status: text, StatusLibelle: text },
        { requiredKeys: ['index'] },
      ),
      { selector: (s) => s.index, maxLength: SOURCES },
    ),
    Data: fc.oneof(
      fc.constant(STORED_DATA),
      text.map(
        (v) =>
          `<Data>\r\n    <SALARIES><SALARIE><NOM>${v.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</NOM></SALARIE></SALARIES>\r\n  </Data>`,
      ),
    ),
  },
  { requiredKeys: [] },
);

describe('property: random connector patches', () => {
  it('change no byte outside the owned nodes, no console scope, and read back as sent', () => {
    fc.assert(
      fc.property(documents, patches, (doc, patch) => {
        const out = editConnectorParts(doc, patch);
        expect(withoutOwned(out)).toBe(withoutOwned(doc));
        expect(consoleScopes(out)).toEqual(consoleScopes(doc));
        for (const [name, value] of Object.entries(patch.Info ?? {})) {
          expect(raw(out, `Info/${name}`)).toBe(value);
        }
        for (const [name, value] of Object.entries(patch.DerSynchro ?? {})) {
          expect(raw(out, `DerSynchro/${name}`)).toBe(value);
        }
        if (patch.Data !== undefined) expect(parseConfig(out).sectionText('Data')).toBe(patch.Data);
        // Applying the same patch again changes nothing.
        expect(editConnectorParts(out, patch)).toBe(out);
      }),
      { seed: 20261123, numRuns: 100 },
    );
  });

  it('every console edit keeps what the connector wrote', () => {
    fc.assert(
      fc.property(patches, fc.integer({ min: 0, max: CONSOLE_EDITS.length - 1 }), (patch, which) => {
        const written = editConnectorParts(FIXTURE, patch);
        const [, consoleEdit] = CONSOLE_EDITS[which]!;
        expect(ownedParts(consoleEdit(written))).toEqual(ownedParts(written));
      }),
      { seed: 20261123, numRuns: 60 },
    );
  });
});

describe('fuzz: mutated Data', () => {
  const SNIPPETS = [
    '<',
    '>',
    '&',
    '&#0;',
    '&nbsp;',
    '<!DOCTYPE a>',
    '<![CDATA[',
    ']]>',
    '</Data>',
    '<Data>',
    '\u0000',
    '\uD800',
  ];
  const mutated = fc
    .array(
      fc.record({
        at: fc.nat(STORED_DATA.length),
        cut: fc.integer({ min: 0, max: 8 }),
        insert: fc.oneof(fc.constant(''), fc.constantFrom(...SNIPPETS)),
      }),
      { minLength: 1, maxLength: 3 },
    )
    .map((edits) =>
      edits.reduce(
        (d, e) => d.slice(0, Math.min(e.at, d.length)) + e.insert + d.slice(e.at + e.cut),
        STORED_DATA,
      ),
    );

  it('is either refused with ConfigXmlError or written as the only change', () => {
    let written = 0;
    fc.assert(
      fc.property(mutated, (data) => {
        let out: string;
        try {
          out = editConnectorParts(FIXTURE, { Data: data });
        } catch (e) {
          if (!(e instanceof ConfigXmlError)) throw e;
          expect(e.message).not.toBe('');
          return;
        }
        written += 1;
        expect(withoutOwned(out)).toBe(withoutOwned(FIXTURE));
        expect(parseConfig(out).sectionText('Data')).toBe(data.trim());
      }),
      { seed: 20261123, numRuns: 200 },
    );
    expect(written).toBeGreaterThan(10);
  });
});
