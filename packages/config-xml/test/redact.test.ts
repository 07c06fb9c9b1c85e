import { describe, expect, it } from 'vitest';
import { SECRET_PLACEHOLDER } from '@synchro/contracts';
import { parseConfig, readSources, redactConfig, sectionOf } from '../src/index.ts';
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
