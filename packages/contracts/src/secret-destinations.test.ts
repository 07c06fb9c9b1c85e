import { describe, expect, it } from 'vitest';
import { SECRET_PLACEHOLDER } from './constants.ts';
import {
  SECRET_DESTINATIONS,
  frenchList,
  movedSecretFields,
  movedSecretHint,
  movedSecretIssues,
} from './secret-destinations.ts';

const rule = SECRET_DESTINATIONS.sources;
const stored = {
  Provider: 'SQLOLEDB',
  Serveur: 'srv',
  Nom_BDD: 'DB',
  Utilisateur: 'sa',
  MDP: SECRET_PLACEHOLDER,
};

describe('secret destinations', () => {
  it('a destination field changed while the placeholder is sent: named by its label', () => {
    expect(movedSecretFields(rule, stored, { ...stored, Serveur: 'ailleurs' })).toEqual(['Serveur']);
    expect(
      movedSecretFields(rule, stored, { ...stored, Provider: '', Nom_BDD: 'X', Utilisateur: 'u' }),
    ).toEqual(['Provider', 'Base de données', 'Utilisateur']);
    expect(
      movedSecretFields(
        SECRET_DESTINATIONS.externalLinks,
        { Logiciel: 'a', Config: 'c', Utilisateur: 'u', MDP: SECRET_PLACEHOLDER },
        {
          Logiciel: 'a',
          Config: 'd',
          Utilisateur: 'u',
          MDP: SECRET_PLACEHOLDER,
        },
      ),
    ).toEqual(['Configuration maître']);
  });

  it('nothing when the secret is typed, cleared, or none is stored, or only other fields change', () => {
    expect(movedSecretFields(rule, stored, { ...stored, Serveur: 'x', MDP: 'neuf' })).toEqual([]);
    expect(movedSecretFields(rule, stored, { ...stored, Serveur: 'x', MDP: '' })).toEqual([]);
    expect(movedSecretFields(rule, { ...stored, MDP: '' }, { ...stored, Serveur: 'x' })).toEqual([]);
    expect(movedSecretFields(rule, undefined, { ...stored, Serveur: 'x' })).toEqual([]);
    expect(movedSecretFields(rule, stored, { ...stored, Lecture_Seule: true })).toEqual([]);
  });

  it('French texts: list, hint and one issue per moved row', () => {
    expect(frenchList(['A'])).toBe('A');
    expect(frenchList(['A', 'B', 'C'])).toBe('A, B et C');
    expect(movedSecretHint(rule, [])).toBe('');
    expect(movedSecretHint(rule, ['Serveur', 'Utilisateur'])).toBe(
      "Serveur et Utilisateur ont changé\u00a0: saisissez à nouveau le mot de passe. Un mot de passe enregistré n'est jamais envoyé vers une autre destination.",
    );
    expect(movedSecretIssues(rule, [stored, stored], [stored, { ...stored, Serveur: 'x' }])).toEqual([
      {
        path: 'sources.1.MDP',
        message: 'Connexion 2\u00a0: Serveur a changé, saisissez à nouveau le mot de passe.',
      },
    ]);
  });
});
