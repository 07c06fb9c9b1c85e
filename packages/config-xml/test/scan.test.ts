import { describe, expect, it } from 'vitest';
import { ConfigXmlError, parseConfig } from '../src/index.ts';
import { FIXTURE } from './helpers.ts';

function fails(text: string, code?: string, options?: { maxBytes?: number }): ConfigXmlError {
  try {
    parseConfig(text, options);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigXmlError);
    const err = e as ConfigXmlError;
    if (code) expect(err.code).toBe(code);
    expect(err.message.length).toBeGreaterThan(5);
    return err;
  }
  throw new Error('parseConfig should have failed');
}

describe('safe parsing', () => {
  it.each([
    '<?xml version&="1.0"?>',
    '<?xml encoding="UTF-8"?>',
    '<?xml version="1.0" encoding=UTF-8?>',
    '<?xml version="1.0" standalone="peut-être"?>',
  ])('refuses the malformed declaration %s', (declaration) => {
    const err = fails(`${declaration}<Connexion/>`, 'malformed');
    expect(err.message).toContain('Déclaration XML');
  });

  it('accepts a declaration with encoding and standalone', () => {
    expect(() =>
      parseConfig(`<?xml version='1.0' encoding='utf-8' standalone="yes" ?><Connexion/>`),
    ).not.toThrow();
  });

  it('finds the ten sections of the fixture in order', () => {
    const doc = parseConfig(FIXTURE);
    expect(doc.layout.sections.map((s) => s.name)).toEqual([
      'Complement',
      'Sources',
      'Liaisons_Externes',
      'Planifications',
      'Info',
      'DerSynchro',
      'Data',
      'Donnees_A_Synchroniser',
      'Exclusions',
      'Terminaux',
    ]);
    expect(doc.layout.newline).toBe('\r\n');
    expect(doc.sectionText('Planifications')).toBe(
      '<Planifications>\r\n    <FuseauHoraire>Europe/Paris</FuseauHoraire>\r\n    <FuseauHoraireValeur>+01:00</FuseauHoraireValeur>\r\n  </Planifications>',
    );
  });

  it('refuses a DOCTYPE, with a French message', () => {
    const err = fails(
      '<?xml version="1.0"?>\n<!DOCTYPE Connexion [<!ENTITY x "y">]>\n<Connexion/>',
      'doctype',
    );
    expect(err.message).toMatch(/DOCTYPE/);
    expect(err.line).toBe(2);
    fails('<Connexion><Info><!DOCTYPE x></Info></Connexion>', 'doctype');
  });

  it('refuses undeclared entities and expands nothing', () => {
    const err = fails('<Connexion><Info>&xxe;</Info></Connexion>', 'entity');
    expect(err.message).toMatch(/&xxe;/);
    fails('<Connexion a="&ext;"/>', 'entity');
    fails('<Connexion><!ENTITY x "y"></Connexion>', 'entity');
  });

  it('accepts the predefined entities and character references', () => {
    const doc = parseConfig(
      '<Connexion><Info><Exe>&lt;&gt;&amp;&apos;&quot;&#13;&#x20AC;&#233;</Exe></Info></Connexion>',
    );
    expect(doc.layout.sections).toHaveLength(1);
  });

  it('refuses bad references and bare ampersands', () => {
    fails('<Connexion>a & b</Connexion>', 'malformed');
    fails('<Connexion>&#0;</Connexion>', 'invalid-char');
    fails('<Connexion>&#xD800;</Connexion>', 'invalid-char');
    fails('<Connexion>&#;</Connexion>', 'malformed');
  });

  it('checks the size limit before parsing', () => {
    const err = fails('<Connexion>' + 'x'.repeat(2000) + '</Connexion>', 'too-large', { maxBytes: 1000 });
    expect(err.message).toMatch(/trop volumineux/);
    // multi-byte characters count as their UTF-8 length
    fails('<Connexion>' + 'é'.repeat(600) + '</Connexion>', 'too-large', { maxBytes: 1000 });
    expect(() =>
      parseConfig('<Connexion>' + 'é'.repeat(400) + '</Connexion>', { maxBytes: 1000 }),
    ).not.toThrow();
  });

  it('accepts a BOM, CRLF, LF, both self-closing styles, comments, CDATA, PIs and attributes', () => {
    const text =
      '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\r\n<!-- head -->\r\n<?pi data?>\r\n<Connexion v="1" w=\'a>b\'>\n' +
      '  <Info a = "x"><Exe/><Serial /><![CDATA[<not a tag>]]><!-- <Fake> --></Info>\n</Connexion>\n<!-- tail -->\n';
    const doc = parseConfig(text);
    expect(doc.layout.bomLength).toBe(1);
    expect(doc.layout.sections.map((s) => s.name)).toEqual(['Info']);
  });

  it('refuses truncated documents at any length', () => {
    const small = FIXTURE.slice(0, 4000);
    for (let i = 1; i < small.length; i += 7) fails(FIXTURE.slice(0, i));
    const err = fails(FIXTURE.slice(0, FIXTURE.length - 20), 'truncated');
    expect(err.message).toMatch(/tronqué/);
  });

  it('refuses mismatched and unclosed tags with line and column', () => {
    const err = fails('<Connexion>\n  <Info>\n    <Exe></Serial>\n  </Info>\n</Connexion>', 'mismatched-tag');
    expect(err.line).toBe(3);
    expect(err.column).toBe(10);
    expect(err.message).toMatch(/ligne 3/);
  });

  it('refuses other faults', () => {
    fails('', 'empty');
    fails('<Other/>', 'root');
    fails('<Connexion/><Connexion/>', 'malformed');
    fails('text<Connexion/>', 'malformed');
    fails('<Connexion/>text', 'malformed');
    fails('<Connexion><a b="1" b="2"/></Connexion>', 'malformed');
    fails('<Connexion><a b="<"/></Connexion>', 'malformed');
    fails('<Connexion><!-- a -- b --></Connexion>', 'malformed');
    fails('<Connexion>]]></Connexion>', 'malformed');
    fails('<Connexion>\u0001</Connexion>', 'invalid-char');
    fails('<Connexion>\uD800</Connexion>', 'invalid-char');
    fails('<Connexion><?xml version="1.0"?></Connexion>', 'malformed');
    fails('<Connexion>' + '<a>'.repeat(300) + '</a>'.repeat(300) + '</Connexion>', 'depth');
  });
});
