import { describe, expect, it } from 'vitest';
import { SECRET_CHANGED_MASKS, SECRET_PLACEHOLDER } from '@synchro/contracts';
import { parseConfig, readSources, redactConfig, redactPair, sectionOf } from '../src/index.ts';
import { FIXTURE } from './helpers.ts';

describe('redactConfig', () => {
  const red = redactConfig(FIXTURE);

  it('removes every secret of the fixture', () => {
    for (const secret of [
      'Demo-75e469',
      'Demo-9a2289',
      'PGpldG9uLWRlLWRlbW9uc3RyYXRpb24vPg==',
      '<Utilisateur>DEMOA001</Utilisateur>',
      '<MDP>0</MDP>',
    ]) {
      expect(FIXTURE).toContain(secret);
      expect(red).not.toContain(secret);
    }
    expect(red).toContain(`<MDP>${SECRET_PLACEHOLDER}</MDP>`);
    expect(red).toContain(`<Valeur>${SECRET_PLACEHOLDER}</Valeur>`);
  });

  it('keeps empty secrets empty and every other byte', () => {
    expect(red).toContain('<MDP/>');
    const strip = (s: string): string => s.split(SECRET_PLACEHOLDER).join('');
    const stripOriginal = FIXTURE.replace(/<MDP>[^<]*<\/MDP>/g, '<MDP></MDP>')
      .replace(/(<APIKey_Google>)[^<]*/, '$1')
      .replace(/(<EspaceClient>\r\n\s*<Utilisateur>)[^<]*/, '$1')
      .replace(/(<IDPoste>)\*/g, '$1')
      .replace(/(<Token>\r\n\s*<Valeur>)[^<]*/g, '$1');
    expect(strip(red)).toBe(stripOriginal);
  });

  it('is still a valid configuration with the same views', () => {
    const d = parseConfig(red);
    expect(readSources(d)).toEqual(readSources(parseConfig(FIXTURE)));
    expect(sectionOf(red, 'Terminaux')).toBe(sectionOf(FIXTURE, 'Terminaux'));
  });

  it('finds secrets at any depth and in unknown places', () => {
    const text =
      '<Connexion><Inconnu><X><MDP>s1</MDP></X></Inconnu><Complement><EspaceClient><Utilisateur>u</Utilisateur><MDP/></EspaceClient></Complement>' +
      '<Autre><Tokens><Token><Valeur>t</Valeur><Proprietes><Actualisation>r</Actualisation></Proprietes></Token></Tokens></Autre></Connexion>';
    const r = redactConfig(text);
    expect(r).not.toMatch(/s1|>u<|>t<|>r</);
    expect(r).toContain('<MDP/>');
  });

  it('returns the text unchanged when there is no secret', () => {
    const text = '<Connexion>\n  <Info><Exe>x</Exe></Info>\n</Connexion>\n';
    expect(redactConfig(text)).toBe(text);
  });
});

describe('redactConfig: every text inside a secret element', () => {
  const wrap = (inner: string) =>
    `<Connexion><Sources><Source>${inner}<Serveur>srv</Serveur></Source></Sources></Connexion>`;
  const P = SECRET_PLACEHOLDER;

  it.each([
    ['CDATA', '<MDP><![CDATA[cd<a>ta]]></MDP>', `<MDP>${P}</MDP>`],
    ['text and CDATA', '<MDP>ab<![CDATA[cd]]>ef</MDP>', `<MDP>${P}</MDP>`],
    ['a comment', '<MDP><!--ancien-mdp-->nouveau</MDP>', `<MDP><!--${P}-->${P}</MDP>`],
    ['a nested element', '<MDP>av<X a="att">dans</X>ap</MDP>', `<MDP>${P}<X a="${P}">${P}</X>${P}</MDP>`],
    ['attributes on the secret element', '<MDP chiffre="0">clair</MDP>', `<MDP chiffre="0">${P}</MDP>`],
    ['a blank password', '<MDP>   </MDP>', `<MDP>${P}</MDP>`],
    ['another case', '<mdp>minuscule</mdp><Mdp>mixte</Mdp>', `<mdp>${P}</mdp><Mdp>${P}</Mdp>`],
    ['an escaped <', '<MDP>a&lt;b</MDP>', `<MDP>${P}</MDP>`],
    ['an empty comment and an empty password', '<MDP><!----></MDP><MDP/>', `<MDP><!----></MDP><MDP/>`],
  ])('%s', (_name, secret, masked) => {
    const text = wrap(secret);
    const r = redactConfig(text);
    expect(r).toBe(wrap(masked));
    expect(r).not.toMatch(/cd|ta|ab|ef|ancien|nouveau|av|att|dans|ap<|clair|minuscule|mixte|a&lt;b/);
    parseConfig(r);
  });

  it('token and customer-area blocks: every text, comment and CDATA at any depth; indentation stays', () => {
    const text =
      '<Connexion><Complement><EspaceClient>\n  <Utilisateur><![CDATA[client]]></Utilisateur>\n  <!-- mdp: vieux -->\n  <MDP>x</MDP>\n</EspaceClient>' +
      '<APIKey_Google>AIzaCle</APIKey_Google></Complement>' +
      '<Liaisons_Externes><Agenda><Token><Valeur>jeton<B>gras</B></Valeur></Token></Agenda></Liaisons_Externes></Connexion>';
    const r = redactConfig(text);
    expect(r).not.toMatch(/client|vieux|>x<|AIzaCle|jeton|gras/);
    expect(r).toContain(
      `<EspaceClient>\n  <Utilisateur>${P}</Utilisateur>\n  <!--${P}-->\n  <MDP>${P}</MDP>\n</EspaceClient>`,
    );
    expect(r).toContain(`<APIKey_Google>${P}</APIKey_Google>`);
    expect(r).toContain(`<Valeur>${P}<B>${P}</B></Valeur>`);
  });
});

describe('redactPair (the raw view of a version’s changes)', () => {
  const doc = (mdp1: string, mdp2: string, token: string, extra = '') =>
    `<Connexion><Sources><Source><MDP>${mdp1}</MDP></Source><Source><MDP>${mdp2}</MDP></Source></Sources>` +
    `<Complement><Tokens><Token a="${token}"><Valeur>${token}</Valeur><IDPoste>*</IDPoste><!--${token}--></Token></Tokens>${extra}</Complement></Connexion>`;
  const { before: changedMark, after: newMark } = SECRET_CHANGED_MASKS;

  it('masks a secret changed at the same place by its side, an unchanged one alike on both sides', () => {
    const { before, after } = redactPair(
      doc('Ancien-1', 'Meme-2', 'tok-A'),
      doc('Nouveau-1', 'Meme-2', 'tok-B'),
    );
    expect(before).toBe(
      `<Connexion><Sources><Source><MDP>${changedMark}</MDP></Source><Source><MDP>${SECRET_PLACEHOLDER}</MDP></Source></Sources>` +
        `<Complement><Tokens><Token a="${changedMark}"><Valeur>${changedMark}</Valeur><IDPoste>${SECRET_PLACEHOLDER}</IDPoste><!--${changedMark}--></Token></Tokens></Complement></Connexion>`,
    );
    expect(after).toBe(before.split(changedMark).join(newMark));
    for (const text of [before, after])
      for (const secret of ['Ancien-1', 'Nouveau-1', 'Meme-2', 'tok-A', 'tok-B'])
        expect(text).not.toContain(secret);
  });

  it('is redactConfig on both sides when nothing changed; the same secret at two places says nothing of it', () => {
    const same = doc('Un', 'Un', 'Un');
    expect(redactPair(same, same)).toEqual({ before: redactConfig(same), after: redactConfig(same) });
    // Source 2 takes source 1's old password: its place changed, so it is marked, like source 1's.
    const { after } = redactPair(doc('Un', 'Deux', 'T'), doc('Trois', 'Un', 'T'));
    expect(after.split(newMark)).toHaveLength(3);
  });

  it('marks a secret the other side lacks (a row added) by its side', () => {
    const { before, after } = redactPair(
      doc('A', 'B', 'T'),
      doc('A', 'B', 'T', '<EspaceClient><Utilisateur>U</Utilisateur></EspaceClient>'),
    );
    expect(before).not.toContain(changedMark);
    expect(after).toContain(`<EspaceClient><Utilisateur>${newMark}</Utilisateur></EspaceClient>`);
  });
});
