import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkRecord,
  ConfigXmlError,
  decodeRecordText,
  encodeConnectorText,
  encodeRecordText,
  isInConnectorForm,
  parseRecord,
  RECORD_MAX_BYTES,
  recordAttachments,
  recordTextForStorage,
} from '../src/index.ts';
import { isPlainRecordXml } from '../src/record/plain-check.ts';

/** The sanitised real record (BOM, CRLF, root SyncNuxiDev), copied from shared/fixtures/records. */
const ENREG = readFileSync(new URL('./fixtures/enreg-devis.xml', import.meta.url), 'utf8');

function refusal(text: string): ConfigXmlError {
  try {
    parseRecord(text);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigXmlError);
    return e as ConfigXmlError;
  }
  throw new Error(`accepted: ${text.slice(0, 80)}`);
}

describe('parseRecord: the safe check of a record XML', () => {
  it('accepts the real record and any root element', () => {
    const doc = parseRecord(ENREG);
    expect(doc.index.name(0)).toBe('SyncNuxiDev');
    expect(doc.text).toBe(ENREG);
    expect(parseRecord('<Intervention><a>&#233;&#x20AC;&amp;&lt;</a></Intervention>').index.name(0)).toBe(
      'Intervention',
    );
  });

  it('refuses a DTD, entities beyond the five, characters XML refuses, broken XML', () => {
    expect(refusal('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>').code).toBe('doctype');
    expect(refusal('<a>&nbsp;</a>').message).toBe(
      'Entité « &nbsp; » non autorisée (seules les entités prédéfinies sont acceptées) (ligne 1, colonne 4)',
    );
    expect(refusal('<a>\u0001</a>').code).toBe('invalid-char');
    expect(refusal('<a>&#1;</a>').code).toBe('invalid-char');
    expect(refusal('<a>\uD800</a>').code).toBe('invalid-char');
    expect(refusal('<a><b></a>').code).toBe('mismatched-tag');
    expect(refusal('<a>').code).toBe('truncated');
    expect(refusal('<a/><b/>').code).toBe('malformed');
    expect(refusal('texte').code).toBe('malformed');
    expect(refusal('<!-- rien -->')).toMatchObject({
      code: 'no-root',
      message: 'Le document ne contient aucun élément.',
    });
    expect(refusal('')).toMatchObject({ code: 'empty', message: 'Le fichier XML est vide.' });
    expect(refusal('\uFEFF').code).toBe('empty');
  });

  it('refuses nesting deeper than 256 levels', () => {
    expect(parseRecord(`${'<a>'.repeat(256)}${'</a>'.repeat(256)}`).index.count).toBe(256);
    expect(refusal(`${'<a>'.repeat(257)}${'</a>'.repeat(257)}`).code).toBe('depth');
  });

  it('measures the 50 MB limit in UTF-8 bytes, with the spec message', () => {
    expect(RECORD_MAX_BYTES).toBe(50 * 1024 * 1024);
    const wrap = (n: number, ch: string): string => `<a>${ch.repeat(n)}</a>`;
    // 7 bytes of markup; 2 bytes per 'é'.
    const atLimit = wrap((RECORD_MAX_BYTES - 7) / 2 - 0.5, 'é') + ' ';
    expect(new TextEncoder().encode(atLimit).length).toBe(RECORD_MAX_BYTES);
    expect(() => parseRecord(atLimit)).not.toThrow();
    const over = refusal(wrap(27 * 1024 * 1024, 'é'));
    expect(over.code).toBe('too-large');
    expect(over.message).toBe(
      'Le fichier XML est trop volumineux (54,0 MB). La taille maximale autorisée est de 50MB.',
    );
  });
});

describe('decodeRecordText / encodeRecordText: the connector convention', () => {
  it('round-trips the real record byte for byte (BOM, CRLF kept)', () => {
    expect(decodeRecordText(ENREG)).toBe(ENREG);
    expect(encodeRecordText(decodeRecordText(ENREG))).toBe(ENREG);
    expect(ENREG.charCodeAt(0)).toBe(0xfeff);
  });

  it('decodes text, CDATA and attribute values; leaves markup, references and the BOM alone', () => {
    const stored =
      '\uFEFF<?xml version="1.0"?><!-- DÃ©but --><?pi CrÃ©ation?><Rec Nom="LÃ©a" Autre=\'Ã§a\'>' +
      '<TypeElement>CrÃ©ation</TypeElement><Note><![CDATA[Ã\u00a0 <b>]]></Note><Ref>&#233;tÃ©</Ref>' +
      // 😀 and € in the convention: their UTF-8 bytes as Latin-1 characters (C1 controls included).
      '<DÃ©signation>\u00f0\u009f\u0098\u0080 5 \u00e2\u0082\u00ac</DÃ©signation></Rec>';
    const shown =
      '\uFEFF<?xml version="1.0"?><!-- DÃ©but --><?pi CrÃ©ation?><Rec Nom="Léa" Autre=\'ça\'>' +
      '<TypeElement>Création</TypeElement><Note><![CDATA[à <b>]]></Note><Ref>&#233;té</Ref>' +
      '<DÃ©signation>😀 5 €</DÃ©signation></Rec>';
    expect(decodeRecordText(stored)).toBe(shown);
    expect(encodeRecordText(shown)).toBe(stored);
  });

  it('shows text that is not in the convention as it is, and stores it in the convention', () => {
    const typed = '<a>Léa et LÃ©a</a>';
    expect(decodeRecordText(typed)).toBe('<a>Léa et Léa</a>');
    expect(encodeRecordText('<a>Léa</a>')).toBe('<a>LÃ©a</a>');
    // A Windows-1252 reading of the bytes is decoded too (as the configuration's codec does).
    expect(decodeRecordText('<a>lâ€™Ã©tÃ©</a>')).toBe('<a>l’été</a>');
  });

  it('returns an ASCII text itself, and never throws on broken input', () => {
    const ascii = '<a b="c">d</a>';
    expect(decodeRecordText(ascii)).toBe(ascii);
    for (const broken of [
      '<a b="Ã©',
      '<a><![CDATA[Ã©',
      '<!-- Ã©',
      '<?pi Ã©',
      '<a Ã©<b>Ã©</b>',
      'Ã©<',
      '<!DOCTYPE Ã©',
    ]) {
      expect(encodeRecordText(decodeRecordText(broken))).toBe(broken);
    }
    expect(decodeRecordText('<a Ã©<b>Ã©</b>')).toBe('<a Ã©<b>é</b>');
  });

  // Random records whose character data is in the convention (built with the codec, tested on its
  // own), with non-ASCII markup around it.
  const CHARS = [
    'a',
    'Z',
    '0',
    ' ',
    'é',
    'è',
    'œ',
    '€',
    '😀',
    'ß',
    '中',
    '\u0085',
    '&amp;',
    '&#233;',
    '\r\n',
    '\t',
  ];
  const value = fc.array(fc.constantFrom(...CHARS), { maxLength: 8 }).map((a) => a.join(''));
  const markupText = fc.constantFrom('', 'Ã©', 'é', 'note €');
  interface Part {
    shown: string;
    stored: string;
  }
  const part: fc.Arbitrary<Part> = fc.oneof(
    value.map((v) => ({ shown: `<v>${v}</v>`, stored: `<v>${encodeConnectorText(v)}</v>` })),
    value.map((v) => ({ shown: `<v a="${v}"/>`, stored: `<v a="${encodeConnectorText(v)}"/>` })),
    value.map((v) => ({ shown: `<![CDATA[${v}]]>`, stored: `<![CDATA[${encodeConnectorText(v)}]]>` })),
    markupText.map((m) => ({ shown: `<!--${m}-->`, stored: `<!--${m}-->` })),
    markupText.map((m) => ({ shown: `<?pi ${m}?>`, stored: `<?pi ${m}?>` })),
  );

  it('property: decode gives the text back, encode(decode(stored)) === stored', () => {
    fc.assert(
      fc.property(fc.array(part, { maxLength: 12 }), fc.boolean(), (parts, bom) => {
        const prefix = bom ? '\uFEFF' : '';
        const stored = `${prefix}<Rec>${parts.map((p) => p.stored).join('\r\n')}</Rec>`;
        const shown = `${prefix}<Rec>${parts.map((p) => p.shown).join('\r\n')}</Rec>`;
        expect(() => parseRecord(stored)).not.toThrow();
        expect(decodeRecordText(stored)).toBe(shown);
        expect(encodeRecordText(decodeRecordText(stored))).toBe(stored);
      }),
      { seed: 20261123, numRuns: 300 },
    );
  });
});

describe('isInConnectorForm / recordTextForStorage: a text sent already encoded is stored once', () => {
  /** What the earlier console's client does to every leaf before it sends (docs/decisions.md). */
  const legacyEncode = (v: string) => unescape(encodeURIComponent(v));

  it('a text whose characters are bytes of valid UTF-8 with a multi-byte sequence is already encoded', () => {
    const encoded = `<a><b>${legacyEncode('Photo S3 été')}</b><c>${legacyEncode('après – 😀 €')}</c></a>`;
    expect(isInConnectorForm(encoded)).toBe(true);
    expect(recordTextForStorage(encoded)).toBe(encoded);
    expect(decodeRecordText(recordTextForStorage(encoded))).toBe(
      '<a><b>Photo S3 été</b><c>après – 😀 €</c></a>',
    );
    // A leading byte order mark is not counted.
    expect(isInConnectorForm(`\uFEFF${encoded}`)).toBe(true);
  });

  it.each([
    ['plain ASCII (the same in both forms)', '<a>Devis 12</a>'],
    ['decoded text, as our screens send it', '<a>Photo S3 été</a>'],
    ['a character above U+00FF', `<a>${legacyEncode('été')} €</a>`],
    ['a lone continuation byte', '<a>n\u00b0 12</a>'],
    ['a lead byte without its continuation', '<a>\u00c3t\u00e9</a>'],
    ['a truncated sequence at the end', '<a>x</a>\u00e2\u0082'],
    ['an overlong form (C0 80)', '<a>\u00c0\u0080</a>'],
    ['a surrogate (ED A0 80)', '<a>\u00ed\u00a0\u0080</a>'],
    ['beyond U+10FFFF (F4 90 80 80)', '<a>\u00f4\u0090\u0080\u0080</a>'],
    ['one encoded leaf beside one in clear', `<a>${legacyEncode('été')}</a><b>à</b>`],
  ])('not already encoded: %s, so encoded once', (_what, text) => {
    expect(isInConnectorForm(text)).toBe(false);
    expect(recordTextForStorage(text)).toBe(encodeRecordText(text));
  });

  it('the one ambiguity: a text in clear whose only accents pair up into valid UTF-8 is taken as encoded', () => {
    // « Ã© » typed as such reads as « é » afterwards.
    expect(isInConnectorForm('<a>Ã©</a>')).toBe(true);
    expect(decodeRecordText(recordTextForStorage('<a>Ã©</a>'))).toBe('<a>é</a>');
  });

  it('property: encoding a decoded text, then storing it again, never encodes twice', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (value) => {
        const clean = value.replace(/[<>&\uFEFF]/g, '');
        const encoded = encodeRecordText(`<v>${clean}</v>`);
        expect(recordTextForStorage(encoded)).toBe(encoded);
      }),
      { numRuns: 300 },
    );
  });
});

describe('recordAttachments', () => {
  const base64 = (bytes: number): string => Buffer.alloc(bytes, 0xab).toString('base64');

  it('finds none in the real quote (Table documentdevis)', () => {
    expect(recordAttachments(ENREG)).toEqual([]);
  });

  it('lists the GED documents and photos with their name and decoded size', () => {
    const pdf = base64(1000);
    const png = base64(31);
    const record =
      '<SyncNuxiDev><Table>ged</Table><Enregistrement>' +
      `<NomDocument>RÃ©sumÃ© d&apos;intervention.pdf</NomDocument><BinaireDocument>${pdf}</BinaireDocument>` +
      '</Enregistrement><Photos><Table>images</Table><Photo1>' +
      `<NomFichier>photo.png</NomFichier><Photo>${png.slice(0, 20)}\r\n${png.slice(20)}</Photo>` +
      '</Photo1></Photos></SyncNuxiDev>';
    const found = recordAttachments(record);
    expect(
      found.map(({ name, size, path, nameElement, contentElement }) => ({
        name,
        size,
        path,
        nameElement,
        contentElement,
      })),
    ).toEqual([
      {
        name: "Résumé d'intervention.pdf",
        size: 1000,
        path: 'SyncNuxiDev/Enregistrement',
        nameElement: 'NomDocument',
        contentElement: 'BinaireDocument',
      },
      {
        name: 'photo.png',
        size: 31,
        path: 'SyncNuxiDev/Photos/Photo1',
        nameElement: 'NomFichier',
        contentElement: 'Photo',
      },
    ]);
    const first = found[0]!;
    expect(record.slice(first.contentStart, first.contentEnd)).toBe(pdf);
  });

  it('follows the nearest Table: a non-attachment table inside a GED record is not one', () => {
    const record =
      '<R><Table>GED</Table><Lignes><Ligne><Table>lignes</Table><NomDocument>x</NomDocument>' +
      `<BinaireDocument>${base64(3)}</BinaireDocument></Ligne></Lignes>` +
      `<Doc><NomDocument>y.txt</NomDocument><BinaireDocument>${base64(4)}</BinaireDocument></Doc></R>`;
    expect(recordAttachments(record).map((a) => [a.name, a.size])).toEqual([['y.txt', 4]]);
    // A Table holding elements is not the leaf that names the table.
    const notLeaf = `<R><Table><x>ged</x></Table><NomDocument>z</NomDocument><BinaireDocument>QQ==</BinaireDocument></R>`;
    expect(recordAttachments(notLeaf)).toEqual([]);
  });

  it('reports a missing name or content (the screen says « Nom du document ou contenu manquant »)', () => {
    const record =
      '<R><Table>images</Table><A><Photo>QUJD</Photo></A><B><NomFichier>b.jpg</NomFichier></B>' +
      '<C><NomFichier>c.jpg</NomFichier><Photo/></C></R>';
    expect(recordAttachments(record).map((a) => [a.name, a.size, a.contentStart === -1])).toEqual([
      ['', 3, false],
      ['b.jpg', 0, true],
      ['c.jpg', 0, false],
    ]);
  });

  it('counts base64 split by references, CDATA and comments, padded or not', () => {
    for (const content of ['QUJD&#13;\nRA==', '<![CDATA[QUJDRA==]]>', 'QUJD<!-- x -->RA', ' QUJDRA== ']) {
      const [a] = recordAttachments(
        `<R><Table>ged</Table><NomDocument>n</NomDocument><BinaireDocument>${content}</BinaireDocument></R>`,
      );
      expect(a?.size, content).toBe(4);
    }
  });

  it('checks the record it is given as text', () => {
    expect(() => recordAttachments('<R><Table>ged</Table>')).toThrow(ConfigXmlError);
    const doc = parseRecord('<R><Table>ged</Table><NomDocument>n</NomDocument></R>');
    expect(recordAttachments(doc)).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// Fuzz: mutated records only ever fail with ConfigXmlError.

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const GED =
  '\uFEFF<SyncNuxiDev><Table>ged</Table><Enregistrement><NomDocument>DÃ©vis.pdf</NomDocument>' +
  `<BinaireDocument>${Buffer.alloc(300, 7).toString('base64')}</BinaireDocument>` +
  '<Libelle att="Ã©">CrÃ©ation &amp; suite<![CDATA[Ã ]]><!-- Ã© --></Libelle></Enregistrement></SyncNuxiDev>';

type TMutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'flip-byte'; at: number; byte: number }
  | { kind: 'delete'; at: number; length: number };

const SNIPPETS = [
  '<',
  '>',
  '&',
  '&#0;',
  '&nbsp;',
  '<!DOCTYPE a>',
  '<![CDATA[',
  ']]>',
  '"',
  '</a>',
  '<b>',
  '\u0000',
  '\uD800',
  'Ã',
  '<!--',
];

function mutation(size: number): fc.Arbitrary<TMutation> {
  return fc.oneof(
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat(size) }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(size), text: fc.constantFrom(...SNIPPETS) }),
    fc.record({ kind: fc.constant('flip-byte' as const), at: fc.nat(size - 1), byte: fc.nat(255) }),
    fc.record({
      kind: fc.constant('delete' as const),
      at: fc.nat(size - 1),
      length: fc.integer({ min: 1, max: 12 }),
    }),
  );
}

function mutate(text: string, m: TMutation): string {
  const at = Math.min(m.at, text.length);
  switch (m.kind) {
    case 'truncate':
      return text.slice(0, at);
    case 'insert':
      return text.slice(0, at) + m.text + text.slice(at);
    case 'delete':
      return text.slice(0, at) + text.slice(at + m.length);
    case 'flip-byte': {
      const bytes = encoder.encode(text);
      bytes[Math.min(m.at, bytes.length - 1)] = m.byte;
      return decoder.decode(bytes);
    }
  }
}

describe('fuzz: mutated records', () => {
  it.each([
    ['the real quote', ENREG],
    ['a GED record', GED],
  ])('%s: check and attachments fail only with ConfigXmlError; the codec never fails', (_label, source) => {
    let valid = 0;
    fc.assert(
      fc.property(fc.array(mutation(source.length), { minLength: 1, maxLength: 3 }), (mutations) => {
        const text = mutations.reduce(mutate, source);
        const shown = decodeRecordText(text);
        encodeRecordText(shown);
        try {
          const doc = parseRecord(text);
          recordAttachments(doc);
          valid += 1;
          // What reads as a record still reads once decoded for display.
          expect(() => parseRecord(shown)).not.toThrow();
        } catch (e) {
          if (!(e instanceof ConfigXmlError)) throw e;
          expect(e.message).not.toBe('');
        }
      }),
      { seed: 20261123, numRuns: 300 },
    );
    expect(valid).toBeGreaterThan(10);
  });
});

/** The verdict of a check: '' when accepted, else the fault's code and message. */
function verdict(check: (text: string) => unknown, text: string): string {
  try {
    check(text);
    return '';
  } catch (e) {
    if (!(e instanceof ConfigXmlError)) throw e;
    return `${e.code}: ${e.message}`;
  }
}

describe('checkRecord: parseRecord’s check with one index filled again for every record', () => {
  it('the same verdict and message as parseRecord on mutated records, one after the other', () => {
    const wide = `<R>${Array.from({ length: 300 }, (_, k) => `<n${k} a="1">v</n${k}>`).join('')}</R>`;
    const secret = '<R><MotDePasse>Ab<cd efGH12</MotDePasse></R>';
    let refused = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(ENREG, GED, wide, secret),
        fc.array(mutation(ENREG.length), { maxLength: 3 }),
        (source, mutations) => {
          const text = mutations.reduce(mutate, source);
          const expected = verdict(parseRecord, text);
          if (expected !== '') refused += 1;
          expect(verdict(checkRecord, text)).toBe(expected);
        },
      ),
      { seed: 20261127, numRuns: 400 },
    );
    expect(refused).toBeGreaterThan(10);
    // After records of many names, a short one is judged on its own names only.
    expect(verdict(checkRecord, wide)).toBe('');
    expect(verdict(checkRecord, '<n1><n2></n1></n2>')).toBe(verdict(parseRecord, '<n1><n2></n1></n2>'));
    expect(verdict(checkRecord, secret)).toBe(verdict(parseRecord, secret));
    expect(verdict(checkRecord, '')).toBe('empty: Le fichier XML est vide.');
  });
});

describe('checkRecord’s plain check: the usual record in one lean pass, the scanner for the rest', () => {
  const nested = (levels: number) => `${'<a>'.repeat(levels)}x${'</a>'.repeat(levels)}`;

  it('takes the real records and every construct it reads (else the speed is lost silently)', () => {
    expect(isPlainRecordXml(ENREG)).toBe(true);
    expect(isPlainRecordXml(GED)).toBe(true);
    const every =
      '\uFEFF<?xml version="1.0" encoding="utf-8" standalone="yes"?>\r\n<!-- avant -->\n' +
      `<R a="1" b:c='&amp;&lt;&gt;&apos;&quot;' d-e.f = "x">t&amp;é€😀 > ]]<e/><e x="y" />` +
      '<![CDATA[<&]]]]><!-- dedans --><_1.2-3>v</_1.2-3></R>\n<!-- après -->\n';
    expect(isPlainRecordXml(every)).toBe(true);
    expect(verdict(parseRecord, every)).toBe('');
    expect(isPlainRecordXml(nested(256))).toBe(true);
  });

  it.each([
    ['a numeric reference', '<a>&#233;</a>'],
    ['another entity', '<a>&nbsp;</a>'],
    ['a lone ampersand', '<a>a & b</a>'],
    ['a processing instruction', '<a><?pi x?></a>'],
    ['a DOCTYPE', '<!DOCTYPE a><a/>'],
    ['an end tag with a space', '<a></a >'],
    ['a name outside ASCII', '<é>x</é>'],
    ['an attribute name outside ASCII', '<a é="1"/>'],
    ['a duplicate attribute', '<a x="1" x="2"/>'],
    ['attributes without a space', '<a x="1"y="2"/>'],
    ['« ]]> » in text', '<a>]]></a>'],
    ['« < » in a value', '<a x="<"/>'],
    ['a reference in a value', '<a x="&#38;"/>'],
    ['an XML 1.1 declaration', '<?xml version="1.1"?><a/>'],
    ['a declaration with a non-XML space', '<?xml\u00a0version="1.0"?><a/>'],
    ['257 levels', nested(257)],
    ['two roots', '<a/><b/>'],
    ['text before the root', 'x<a/>'],
    ['a mismatched end tag', '<a><b></a></b>'],
    ['an unclosed element', '<a><b></b>'],
    ['a control character', '<a>\u0001</a>'],
    ['a lone surrogate', '<a>\uD800</a>'],
    ['a CDATA section outside the root', '<![CDATA[x]]><a/>'],
    ['a comment with « -- »', '<a><!-- a -- b --></a>'],
    ['nothing but a declaration', '<?xml version="1.0"?>'],
    ['whitespace only', ' \r\n'],
  ])('leaves %s to the scanner, which gives its own verdict', (_label, text) => {
    expect(isPlainRecordXml(text)).toBe(false);
    expect(verdict(checkRecord, text)).toBe(verdict(parseRecord, text));
  });

  it('says yes only to what the scanner accepts, and checkRecord keeps parseRecord’s verdicts, on generated documents', () => {
    const token = fc.constantFrom(
      '<a>',
      '</a>',
      '<b x="1">',
      '</b>',
      '<c y=\'2\' z="3"/>',
      '<a/>',
      '<b x="1" x="2">',
      '<a x="&amp;">',
      '<a x="<">',
      '<b\tx = "v"\n>',
      '</b >',
      'text',
      ' ',
      '\r\n',
      'é',
      '😀',
      '&amp;',
      '&lt;',
      '&quot;',
      '&foo;',
      '&#38;',
      '&#0;',
      '&',
      '<!-- c -->',
      '<!-- a--b -->',
      '<![CDATA[x]]>',
      '<![CDATA[',
      ']]>',
      ']]',
      '>',
      '<',
      '"',
      '=',
      '<?pi x?>',
      '<?xml version="1.0"?>',
      '<!DOCTYPE a>',
      '\u0001',
      '\uFEFF',
      '<é>',
      '</é>',
      '<1a>',
      '<a',
      '/>',
      '\uD800',
    );
    const { element } = fc.letrec<{ element: string; content: string }>((tie) => ({
      element: fc
        .tuple(
          fc.constantFrom('a', 'B', '_x', 'n:s', 'c-1.2'),
          fc.constantFrom('', ' x="1"', " y='&amp;'", ' x="1" y="2"', '\tz = "v"\n'),
          fc.array(tie('content'), { maxLength: 4 }),
          fc.boolean(),
        )
        .map(([name, attributes, children, empty]) =>
          empty && children.length === 0
            ? `<${name}${attributes}/>`
            : `<${name}${attributes}>${children.join('')}</${name}>`,
        ),
      content: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom('text', ' ', '\r\n', 'é😀', '&amp;&lt;', '<!-- c -->', '<![CDATA[<x>]]>', ']]', '>'),
        tie('element'),
      ),
    }));
    const document = fc
      .tuple(
        fc.constantFrom('', '\uFEFF', '<?xml version="1.0"?>', '<!-- c -->\n'),
        element,
        fc.constantFrom('', '\r\n'),
      )
      .map((parts) => parts.join(''));
    // Well-formed documents, and the same with a token that may break them put anywhere.
    const generated = fc.oneof(
      document,
      fc.tuple(document, token, fc.nat()).map(([text, bad, at]) => {
        const k = at % (text.length + 1);
        return text.slice(0, k) + bad + text.slice(k);
      }),
      fc.array(token, { maxLength: 14 }).map((tokens) => tokens.join('')),
    );
    let plain = 0;
    let left = 0;
    fc.assert(
      fc.property(generated, (text) => {
        const expected = verdict(parseRecord, text);
        if (isPlainRecordXml(text)) {
          plain += 1;
          expect(expected).toBe('');
        } else if (expected === '') left += 1;
        expect(verdict(checkRecord, text)).toBe(expected);
      }),
      { seed: 20261128, numRuns: 3000 },
    );
    // Not vacuous: many generated documents went the lean way, and some good ones to the scanner.
    expect(plain).toBeGreaterThan(600);
    expect(left).toBeGreaterThan(10);
  });

  it('says yes only to what the scanner accepts on mutated real records', () => {
    let plain = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(ENREG, GED),
        fc.array(mutation(ENREG.length), { maxLength: 2 }),
        (source, ms) => {
          const text = ms.reduce(mutate, source);
          if (!isPlainRecordXml(text)) return;
          plain += 1;
          expect(verdict(parseRecord, text)).toBe('');
        },
      ),
      { seed: 20261129, numRuns: 600 },
    );
    expect(plain).toBeGreaterThan(50);
  });
});
