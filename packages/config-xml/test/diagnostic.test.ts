import { readFileSync } from 'node:fs';
import { SECRET_PLACEHOLDER, ZConfigDiagnostic } from '@synchro/contracts';
import { describe, expect, it } from 'vitest';
import { diagnoseConfig } from '../src/diagnostic/diagnose.ts';
import { encodeOneLevel } from '../src/diagnostic/encoding-runs.ts';
import { DEFAULT_MAX_BYTES } from '../src/xml/scan.ts';
import { maskSecrets } from '../src/diagnostic/mask-secrets.ts';

const fixture = readFileSync(new URL('./fixtures/connexion-ebp-gescom.xml', import.meta.url), 'utf8');
const codes = (text: string): string[] => diagnoseConfig(text).issues.map((issue) => issue.code);
const small = (body: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\r\n<Connexion>\r\n  <Sources/>\r\n  <Info>\r\n${body}\r\n  </Info>\r\n  <Terminaux/>\r\n</Connexion>\r\n`;

describe('diagnoseConfig on the fixture', () => {
  const diagnostic = diagnoseConfig(fixture);

  it('matches the contract schema and reports a valid, readable document', () => {
    expect(ZConfigDiagnostic.parse(diagnostic)).toEqual(diagnostic);
    expect(diagnostic).toMatchObject({
      hasXML: true,
      xmlLength: fixture.length,
      isValid: true,
      canExtractValues: true,
      parseError: null,
      problematicLine: null,
      problematicContent: [],
    });
  });

  it('extracts the key fields, decoded, with NC for the absent ones', () => {
    expect(diagnostic.extractionResults).toMatchObject({
      VersionConnecteur: 'NC',
      NuxiAutomateInstall: '1',
      DateMAJConfig: '20250305093300664',
      Serial: 'DEMO-EB15-AB22-A1BA-5B66',
      'DerSynchro.DateHeure': '20250309080952542',
      'DerSynchro.TypeDeSync': 'Complète',
      NbSources: '4',
      NbLiaisons: '4',
      NbCorrespondances: '25',
      NbDonnees: '63',
      NbTerminaux: '25',
      NbPlannings: '0',
    });
    expect(diagnostic.extractionResults.Exe).toContain('Exécutable Windows 64 bits');
  });

  it('flags the double-escaping artefacts of the fixture, and nothing else', () => {
    expect(diagnostic.issues).toEqual([
      expect.objectContaining({ code: 'double-escaped-entity', severity: 'warning', line: 586, count: 27 }),
    ]);
  });
});

describe('diagnoseConfig on broken input', () => {
  it('reports absent XML without throwing', () => {
    for (const input of [null, undefined, '', '  \r\n']) {
      const diagnostic = diagnoseConfig(input);
      expect(diagnostic.hasXML).toBe(false);
      expect(diagnostic.isValid).toBe(false);
      expect(diagnostic.canExtractValues).toBe(false);
    }
  });

  it('gives the faulty line in French with three context lines on each side', () => {
    const broken = fixture.replace('<Serial>DEMO-EB15-AB22-A1BA-5B66</Serial>', '<Serial>DEMO</Serail>');
    const diagnostic = diagnoseConfig(broken);
    expect(diagnostic.isValid).toBe(false);
    expect(diagnostic.problematicLine).toBe(263);
    expect(diagnostic.parseError).toMatch(/^Ligne 263 : /);
    expect(diagnostic.problematicContent.map((line) => line.lineNumber)).toEqual([
      260, 261, 262, 263, 264, 265, 266,
    ]);
    expect(diagnostic.problematicContent.filter((line) => line.isProblematic)).toEqual([
      { lineNumber: 263, content: '    <Serial>DEMO</Serail>', isProblematic: true },
    ]);
  });

  it('names the element left open when an end tag closes its parent', () => {
    const diagnostic = diagnoseConfig(fixture.replace('DEMO-EB15-AB22-A1BA-5B66</Serial>', 'DEMO'));
    expect(diagnostic.parseError).toBe(
      'Ligne 267 : balise fermante inattendue : l’élément <Serial> n’est pas fermé avant elle',
    );
  });

  it('cuts a very long problematic line around the fault', () => {
    const oneLine = `<Connexion><Info>${'<Serial>x</Serial>'.repeat(500)}<Exe>a & b</Exe></Info></Connexion>`;
    const diagnostic = diagnoseConfig(oneLine);
    expect(diagnostic.problematicLine).toBe(1);
    const [line] = diagnostic.problematicContent;
    expect(line?.content.length).toBeLessThanOrEqual(402);
    expect(line?.content).toContain('<Exe>a & b</Exe>');
    expect(line?.content.startsWith('…')).toBe(true);
  });

  it('places a bare & on its own line although saxes reports it later', () => {
    const diagnostic = diagnoseConfig(fixture.replace('<Nom>BERGER</Nom>', '<Nom>BERGER & fils</Nom>'));
    expect(diagnostic.isValid).toBe(false);
    expect(diagnostic.problematicLine).toBe(291);
    expect(diagnostic.parseError).toContain('« & » isolé');
    expect(codes(fixture.replace('BERGER', 'R&D'))).toContain('bare-ampersand');
  });

  it('reports a stray < and ]]> in text', () => {
    const diagnostic = diagnoseConfig(small('    <Serial>a < b</Serial>\r\n    <Exe>c ]]> d</Exe>'));
    expect(diagnostic.isValid).toBe(false);
    const lexical = diagnostic.issues.filter((issue) => issue.code !== 'missing-section');
    expect(lexical.map((issue) => [issue.code, issue.line])).toEqual([
      ['bare-less-than', 5],
      ['cdata-end-in-text', 6],
    ]);
  });

  it('still extracts values from an invalid document, with Error: for a field it cannot read', () => {
    const diagnostic = diagnoseConfig(fixture.replace('DEMO-EB15-AB22-A1BA-5B66</Serial>', 'DEMO'));
    expect(diagnostic.isValid).toBe(false);
    expect(diagnostic.extractionResults.Serial).toMatch(/^Error: /);
    expect(diagnostic.extractionResults.NbTerminaux).toBe('25');
    expect(diagnostic.canExtractValues).toBe(false);
    const other = diagnoseConfig(fixture.replace('<Nom>BERGER</Nom>', '<Nom>BERGER</Nmo>'));
    expect(other.isValid).toBe(false);
    expect(other.canExtractValues).toBe(true);
    expect(other.extractionResults.Serial).toBe('DEMO-EB15-AB22-A1BA-5B66');
  });

  it('flags a field present twice', () => {
    const twice = small('    <Serial>A</Serial>\r\n    <Serial>B</Serial>');
    expect(diagnoseConfig(twice).extractionResults.Serial).toBe('Error: <Serial> présent 2 fois');
  });

  it('refuses a DOCTYPE without expanding its entities', () => {
    const billion =
      '<?xml version="1.0"?><!DOCTYPE Connexion [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>\n<Connexion><Info><Serial>&b;</Serial></Info></Connexion>';
    const diagnostic = diagnoseConfig(billion);
    expect(diagnostic.isValid).toBe(false);
    expect(diagnostic.issues.map((issue) => issue.code)).toContain('doctype');
    expect(diagnostic.extractionResults.Serial).not.toContain('aaaa');
  });

  it('reports characters invalid in XML 1.0, literal or as references', () => {
    const diagnostic = diagnoseConfig(small('    <Serial>A\u0001B&#x1F;</Serial>'));
    expect(diagnostic.isValid).toBe(false);
    expect(diagnostic.issues).toContainEqual(
      expect.objectContaining({ code: 'invalid-character', count: 2, line: 5 }),
    );
    expect(codes(small('    <Serial>A&#13;&#x9;</Serial>'))).not.toContain('invalid-character');
  });

  it('reports plain accented text and multiple encodings apart from the convention', () => {
    const convention = encodeOneLevel('Léa');
    expect(codes(small(`    <Exe>${convention}</Exe>`))).not.toContain('plain-encoding');
    expect(codes(small(`    <Exe>${convention}</Exe>`))).not.toContain('multiple-encoding');
    const plain = diagnoseConfig(small(`    <Exe>${convention}</Exe>\r\n    <Serial>Léa</Serial>`));
    expect(plain.issues).toContainEqual(
      expect.objectContaining({ code: 'plain-encoding', count: 1, line: 6 }),
    );
    expect(plain.issues.find((issue) => issue.code === 'plain-encoding')?.message).toContain(
      'encodages mélangés',
    );
    const double = encodeOneLevel(convention);
    const triple = encodeOneLevel(double);
    const multiple = diagnoseConfig(small(`    <Exe>${double}</Exe>\r\n    <Serial>${triple}</Serial>`));
    expect(multiple.issues).toContainEqual(
      expect.objectContaining({ code: 'multiple-encoding', count: 2, line: 5 }),
    );
  });

  it('reports missing sections: required ones as errors, the others as warnings', () => {
    const diagnostic = diagnoseConfig('<Connexion>\n  <Sources/>\n</Connexion>');
    const missing = diagnostic.issues.filter((issue) => issue.code === 'missing-section');
    expect(missing.filter((issue) => issue.severity === 'error').map((issue) => issue.message)).toEqual([
      'La section obligatoire <Info> est absente.',
      'La section obligatoire <Terminaux> est absente.',
    ]);
    expect(missing.filter((issue) => issue.severity === 'warning')).toHaveLength(7);
    expect(diagnostic.isValid).toBe(true);
  });

  it('reports a section present twice', () => {
    const twice = small('    <Serial>A</Serial>').replace('<Terminaux/>', '<Terminaux/>\r\n  <Sources/>');
    const issues = diagnoseConfig(twice).issues;
    expect(issues.filter((issue) => issue.code === 'duplicate-section')).toEqual([
      expect.objectContaining({
        severity: 'warning',
        count: 2,
        line: 8,
        message: 'La section <Sources> apparaît 2 fois.',
      }),
    ]);
    expect(issues.filter((issue) => issue.code !== 'duplicate-section')).toHaveLength(7);
  });

  it('is invalid whenever the package parser refuses the document', () => {
    const deep = `<Connexion>\n<Info>${'<a>'.repeat(300)}${'</a>'.repeat(300)}</Info></Connexion>`;
    const diagnostic = diagnoseConfig(deep);
    expect(diagnostic.isValid).toBe(false);
    expect(diagnostic.parseError).toBe('Ligne 2 : Le document est trop profond (plus de 256 niveaux)');
    expect(diagnostic.issues).toContainEqual(expect.objectContaining({ code: 'parser-refusal', line: 2 }));
  });

  it('reports a malformed XML declaration in French', () => {
    const diagnostic = diagnoseConfig(fixture.replace('version="1.0"', 'version&="1.0"'));
    expect(diagnostic.isValid).toBe(false);
    expect(diagnostic.parseError).toBe('Ligne 1 : déclaration XML (<?xml … ?>) mal formée');
  });

  it('reports a wrong root element as invalid', () => {
    const diagnostic = diagnoseConfig('<Config><Info/></Config>');
    expect(diagnostic.isValid).toBe(false);
    expect(diagnostic.parseError).toContain('<Connexion>');
    expect(codes('<Config/>')).toContain('wrong-root');
  });

  it('refuses a document over the package size limit without parsing it', () => {
    const huge = `<Connexion>${' '.repeat(DEFAULT_MAX_BYTES)}</Connexion>`;
    const started = performance.now();
    const diagnostic = diagnoseConfig(huge);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(diagnostic.isValid).toBe(false);
    expect(diagnostic.parseError).toContain('trop volumineux');
    expect(diagnostic.issues.map((issue) => issue.code)).toEqual(['too-large']);
  });
});

describe('secrets in the context lines', () => {
  // The fixture's secrets, read independently of the engine.
  const secrets = [
    ...[...fixture.matchAll(/<MDP>([^<]+)<\/MDP>/g)].map((m) => m[1] ?? ''),
    ...[...fixture.matchAll(/<Valeur>([^<]+)<\/Valeur>/g)].map((m) => m[1] ?? ''),
  ].filter((s) => s.length > 1);

  it('never shows a password, token or customer-area login of a broken document', () => {
    expect(secrets.length).toBeGreaterThan(2);
    // Break the document right beside each kind of secret: the context lines then hold them.
    const breakAfter = (marker: string) => fixture.replace(marker, `${marker}\n</Oops>`);
    for (const broken of [
      breakAfter('<MDP>Demo-75e469</MDP>'),
      breakAfter('<Valeur>PGpldG9uLWRlLWRlbW9uc3RyYXRpb24vPg==</Valeur>'),
      breakAfter('<Utilisateur>DEMOA001</Utilisateur>'),
    ]) {
      const d = diagnoseConfig(broken);
      expect(d.isValid).toBe(false);
      const shown = d.problematicContent.map((l) => l.content).join('\n');
      expect(shown).toContain(SECRET_PLACEHOLDER);
      for (const secret of secrets) expect(JSON.stringify(d)).not.toContain(secret);
    }
  });

  it('keeps the line numbers of the stored document when a secret spans lines', () => {
    const text = '<Connexion>\n<Sources><Source><MDP>a\nb\nc</MDP>\n<Oops></Sources>\n</Connexion>';
    const d = diagnoseConfig(text);
    const line = d.problematicContent.find((l) => l.isProblematic);
    expect(text.split('\n')[(line?.lineNumber ?? 0) - 1]).toBe(line?.content);
  });
});

describe('maskSecrets: everything between the start and the end tag of a secret', () => {
  const P = SECRET_PLACEHOLDER;
  it.each([
    ['CDATA', '<MDP><![CDATA[cd<ta]]></MDP>', `<MDP>${P}</MDP>`],
    ['a comment', '<MDP><!-- ancien -->neuf</MDP>', `<MDP>${P}</MDP>`],
    ['an unescaped <', '<MDP>pa<ss>wo<rd</MDP>', `<MDP>${P}</MDP>`],
    ['a nested tag', '<MDP>a<b>c</b>d</MDP>', `<MDP>${P}</MDP>`],
    ['attributes, quoted >', '<MDP x="1>2" y=\'z\'>clair</MDP>', `<MDP x="1>2" y='z'>${P}</MDP>`],
    ['another case, spaced end tag', '<mdp>bas</MDP ><Mdp>mixte</mDP>', `<mdp>${P}</MDP ><Mdp>${P}</mDP>`],
    ['a self-closing secret', '<MDP/><Serveur>srv</Serveur><MDP />', '<MDP/><Serveur>srv</Serveur><MDP />'],
    ['the geocoding key', '<APIKey_Google>AIzaCle</APIKey_Google>', `<APIKey_Google>${P}</APIKey_Google>`],
    [
      'a token block',
      '<Tokens><Token><Valeur>jeton</Valeur><!--c--></Token></Tokens>',
      `<Tokens>${P}</Tokens>`,
    ],
    ['an unclosed secret at the end', '<Source><MDP>coupé<Serveur>x', `<Source><MDP>${P}`],
  ])('%s', (_name, text, masked) => {
    expect(maskSecrets(text)).toBe(masked);
  });

  it('keeps the line count inside a masked secret, and empty secrets empty', () => {
    expect(maskSecrets('<EspaceClient>\n<U>u</U>\n</EspaceClient>\n<MDP></MDP>')).toBe(
      `<EspaceClient>${P}\n\n</EspaceClient>\n<MDP></MDP>`,
    );
  });

  it('a < inside a password read as a tag is not named by the parser messages', () => {
    for (const password of ['Av<Morceau>Apres', 'Av</Morceau>Apres', 'Av<Morceau']) {
      const d = diagnoseConfig(fixture.replace('<MDP>Demo-75e469</MDP>', `<MDP>${password}</MDP>`));
      expect(d.isValid).toBe(false);
      expect(JSON.stringify(d)).not.toMatch(/Morceau|Apres/);
    }
    const d = diagnoseConfig(fixture.replace('<MDP>Demo-75e469</MDP>', '<MDP>Av<Morceau>Apres</MDP>'));
    expect(d.parseError).toContain(`<${P}>`);
  });

  it('a broken document with a CDATA password, a commented one and a stray < shows none of them', () => {
    const broken = fixture
      .replace('<MDP>Demo-75e469</MDP>', '<MDP><![CDATA[Cdata-111]]><!--Vieux-222--></MDP>\n</Oops>')
      .replace('<MDP>Demo-9a2289</MDP>', '<MDP>Avant-333<Apres-444</MDP>');
    const d = diagnoseConfig(broken);
    expect(d.isValid).toBe(false);
    const shown = JSON.stringify(d);
    for (const s of ['Cdata-111', 'Vieux-222', 'Avant-333', 'Apres-444']) expect(shown).not.toContain(s);
    expect(d.problematicContent.map((l) => l.content).join('\n')).toContain(`<MDP>${P}</MDP>`);
  });
});
