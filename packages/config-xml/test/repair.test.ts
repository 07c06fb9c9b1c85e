import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagnoseConfig } from '../src/diagnostic/diagnose.ts';
import { encodeOneLevel } from '../src/diagnostic/encoding-runs.ts';
import { ConfigXmlError } from '../src/errors.ts';
import { repairConfig } from '../src/repair/repair.ts';

const fixture = readFileSync(new URL('./fixtures/connexion-ebp-gescom.xml', import.meta.url), 'utf8');
/** The fixture once its double-escaping artefacts are fixed: a document with nothing to repair. */
const clean = fixture.replaceAll('&amp;apos;', '&apos;');

function repaired(text: string): { text: string; codes: string[]; lines: (number | undefined)[] } {
  const result = repairConfig(text);
  expect(diagnoseConfig(result.text).isValid).toBe(true);
  // Idempotent: the repaired document has nothing left to repair.
  expect(repairConfig(result.text)).toEqual({ text: result.text, changes: [] });
  return {
    text: result.text,
    codes: result.changes.map((c) => c.code),
    lines: result.changes.map((c) => c.line),
  };
}

function refusal(text: string): ConfigXmlError {
  try {
    repairConfig(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigXmlError);
    return error as ConfigXmlError;
  }
  throw new Error('repairConfig should have refused');
}

describe('repairConfig', () => {
  it('returns a document without faults byte-identical, with no change', () => {
    expect(repairConfig(clean)).toEqual({ text: clean, changes: [] });
    const bom = `\uFEFF${clean}`;
    expect(repairConfig(bom).text).toBe(bom);
  });

  it('undoes the double escaping of the fixture, and only that', () => {
    const result = repaired(fixture);
    expect(result.text).toBe(clean);
    expect(result.codes).toEqual(['double-escaped-entity']);
    expect(result.lines).toEqual([586]);
    expect(repairConfig(fixture).changes[0]?.message).toContain('27 entité(s)');
  });

  it('reduces triple escaping to one level and leaves a plain &amp; alone', () => {
    const text = clean.replace('<Nom>BERGER</Nom>', '<Nom>R&amp;D &amp;amp;amp; &amp;quot;x&amp;#13;</Nom>');
    expect(repaired(text).text).toBe(
      clean.replace('<Nom>BERGER</Nom>', '<Nom>R&amp;D &amp; &quot;x&#13;</Nom>'),
    );
  });

  it('escapes a bare & and a stray <, keeping CRLF and the rest byte for byte', () => {
    const text = clean.replace('<Nom>BERGER</Nom>', '<Nom>BERGER & fils < 3 &nbsp;</Nom>');
    const result = repaired(text);
    expect(result.text).toBe(
      clean.replace('<Nom>BERGER</Nom>', '<Nom>BERGER &amp; fils &lt; 3 &amp;nbsp;</Nom>'),
    );
    expect(result.codes).toEqual(['bare-ampersand', 'bare-less-than']);
    expect(result.lines).toEqual([291, 291]);
  });

  it('escapes ]]> in text', () => {
    const text = clean.replace('<Nom>BERGER</Nom>', '<Nom>a]]>b</Nom>');
    const result = repaired(text);
    expect(result.text).toBe(clean.replace('<Nom>BERGER</Nom>', '<Nom>a]]&gt;b</Nom>'));
    expect(result.codes).toEqual(['cdata-end-in-text']);
  });

  it('does not touch & in comments or CDATA', () => {
    const text = clean.replace('<Connexion>', '<Connexion><!-- a & b --><![CDATA[&amp;apos;]]>');
    expect(repairConfig(text)).toEqual({ text, changes: [] });
  });

  it('removes characters invalid in XML, literal or as references', () => {
    const text = clean.replace('<Nom>BERGER</Nom>', '<Nom>BER\u0000GER\u001B&#x1;&#11;</Nom>');
    const result = repaired(text);
    expect(result.text).toBe(clean);
    expect(result.codes).toEqual(['invalid-character']);
  });

  it('encodes plain accented text to the convention and decodes extra levels', () => {
    const convention = encodeOneLevel('Léa');
    const doubled = encodeOneLevel(convention);
    const tripled = encodeOneLevel(doubled);
    const text = clean
      .replace('<Prenom>Hugo</Prenom>', '<Prenom>Léa</Prenom>')
      .replace('<Nom>FAURE</Nom>', `<Nom>${doubled}</Nom>`)
      .replace('<Prenom>Claire</Prenom>', `<Prenom>${tripled} et Zoé</Prenom>`);
    const result = repaired(text);
    expect(result.text).toBe(
      clean
        .replace('<Prenom>Hugo</Prenom>', `<Prenom>${convention}</Prenom>`)
        .replace('<Nom>FAURE</Nom>', `<Nom>${convention}</Nom>`)
        .replace('<Prenom>Claire</Prenom>', `<Prenom>${convention} et Zo${encodeOneLevel('é')}</Prenom>`),
    );
    expect(result.codes).toEqual(['plain-encoding', 'multiple-encoding']);
    expect(diagnoseConfig(result.text).issues).toEqual([]);
  });

  it('closes a leaf left open whose next sibling starts on the next line', () => {
    const text = clean.replace(
      '<Serial>DEMO-EB15-AB22-A1BA-5B66</Serial>',
      '<Serial>DEMO-EB15-AB22-A1BA-5B66',
    );
    const result = repaired(text);
    expect(result.text).toBe(clean);
    expect(result.codes).toEqual(['unclosed-tag']);
    expect(result.lines).toEqual([263]);
  });

  it('closes a last leaf left open before its parent end tag, and an empty one', () => {
    const text = clean
      .replace('<DateMAJConfig>20250305093300664</DateMAJConfig>', '<DateMAJConfig>20250305093300664')
      .replace('<Taille>3,721 Mo</Taille>', '<Taille>');
    const result = repaired(text);
    expect(result.text).toBe(clean.replace('<Taille>3,721 Mo</Taille>', '<Taille></Taille>'));
    expect(result.codes).toEqual(['unclosed-tag', 'unclosed-tag']);
  });

  it('renames a misspelt end tag when it is the only one that can close', () => {
    const text = clean.replace(
      '<Serial>DEMO-EB15-AB22-A1BA-5B66</Serial>',
      '<Serial>DEMO-EB15-AB22-A1BA-5B66</Serail>',
    );
    const result = repaired(text);
    expect(result.text).toBe(clean);
    expect(result.codes).toEqual(['mismatched-end-tag']);
    expect(repairConfig(text).changes[0]?.message).toBe('Balise fermante </Serail> corrigée en </Serial>.');
  });

  it('mends a start tag whose name was damaged, after its end tag', () => {
    const text = clean.replace('<Nom>BERGER</Nom>', '<No&m>BERGER</Nom>');
    const result = repaired(text);
    expect(result.text).toBe(clean);
    expect(repairConfig(text).changes).toEqual([
      { code: 'mismatched-end-tag', message: 'Balise ouvrante <No&m> corrigée en <Nom>.', line: 291 },
    ]);
  });

  it('removes an end tag written twice in a row', () => {
    const text = clean.replace('</Sources>', '</Sources>\r\n  </Sources>').replace('</Nom>', '</Nom></Nom>');
    const result = repaired(text);
    expect(result.text).toBe(clean);
    expect(result.codes).toEqual(['duplicate-end-tag', 'duplicate-end-tag']);
  });

  it('adds the missing sections in legacy order with the document line end and indentation', () => {
    const text =
      '<?xml version="1.0"?>\r\n<Connexion>\r\n    <Sources>\r\n    </Sources>\r\n    <Info/>\r\n</Connexion>\r\n';
    const result = repaired(text);
    expect(result.text).toBe(
      '<?xml version="1.0"?>\r\n<Connexion>\r\n    <Complement/>\r\n    <Sources>\r\n    </Sources>\r\n' +
        '    <Liaisons_Externes/>\r\n    <Planifications/>\r\n    <Info/>\r\n    <DerSynchro/>\r\n    <Data/>\r\n' +
        '    <Donnees_A_Synchroniser/>\r\n    <Exclusions/>\r\n    <Terminaux/>\r\n</Connexion>\r\n',
    );
    expect(result.codes).toEqual(Array(8).fill('missing-section'));
  });

  it('fills an empty root, self-closing or not', () => {
    expect(repaired('<Connexion/>').text).toMatch(
      /^<Connexion>\n {2}<Complement\/>\n[\s\S]*<Terminaux\/>\n<\/Connexion>$/,
    );
    expect(repaired('<Connexion></Connexion>').text).toMatch(
      /^<Connexion>\n {2}<Complement\/>[\s\S]*<Terminaux\/>\n<\/Connexion>$/,
    );
  });

  it('refuses what it cannot repair without guessing, in French', () => {
    expect(refusal(fixture.slice(0, 60_000)).message).toContain('tronqué');
    expect(refusal(clean.replace('</Info>', '')).message).toContain('impossible sans deviner');
    expect(refusal(clean.replace('<Nom>BERGER</Nom>', 'BERGER</Nom>')).code).toBe('repair-ambiguous');
    expect(refusal(clean.replace('<Source>', '<Source>\r\n    <Source>')).code).toBe('repair-ambiguous');
    expect(refusal('<Config><Info/></Config>').message).toContain('<Connexion>');
    expect(refusal('<!DOCTYPE Connexion><Connexion/>').message).toContain('DOCTYPE');
    expect(refusal('').code).toBe('repair-refused');
    // A damaged tag is not turned into text.
    expect(refusal(clean.replace('<Nom>BERGER</Nom>', '<Nom>BERGER</ Nom>')).code).toBe('repair-ambiguous');
    expect(refusal(clean.replace('<Nom>BERGER</Nom>', '< Nom>BERGER</Nom>')).code).toBe('repair-ambiguous');
    expect(refusal(clean.replace('<Nom>BERGER</Nom>', '<Nom>BERGER<Prenom>x</Prenom></Nmo>')).code).toBe(
      'repair-ambiguous',
    );
  });
});
