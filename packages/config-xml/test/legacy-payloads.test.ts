import { describe, expect, it } from 'vitest';
import {
  editExclusions,
  editExternalCalendars,
  parseConfig,
  readExclusions,
  readExternalCalendars,
} from '../src/index.ts';
import { FIXTURE } from './helpers.ts';

// What the earlier console's own client sends, saved the same as what this console sends.

describe('exclusions sent with ART, CLI, FOU and no label', () => {
  const stored = readExclusions(parseConfig(FIXTURE)).exclusions;

  it('the codes mean the three family types; labels come from the Data lists', () => {
    const legacy = {
      exclusions: [
        { id: 'ANIM0001|', type: 'ART' as const },
        { id: 'PUZZ0001|SFAR00001', type: 'ART' as const },
        { id: 'CE0001|SFCL00002', type: 'CLI' as const, libelle: null },
        { id: 'GROSSI', type: 'FOU' as const },
      ],
    };
    const out = editExclusions(FIXTURE, legacy);
    expect(readExclusions(parseConfig(out)).exclusions).toEqual([
      { id: 'ANIM0001|', libelle: 'ANIMATIONS', type: 'ItemFamily' },
      // A sub-family's label is written as the console writes it: family, tab, sub-family.
      { id: 'PUZZ0001|SFAR00001', libelle: 'PUZZLES\tPuzzle + 900 pièces', type: 'ItemFamily' },
      {
        id: 'CE0001|SFCL00002',
        libelle: "Comités d'entreprise\tEntreprises Etrangères",
        type: 'CustomerFamily',
      },
      { id: 'GROSSI|', libelle: 'Grossiste', type: 'SupplierFamily' },
    ]);
    expect(out).not.toMatch(/<Type>(ART|CLI|FOU)<\/Type>/);
  });

  it('sending the stored list back with codes and without labels changes nothing', () => {
    const code = { ItemFamily: 'ART', CustomerFamily: 'CLI', SupplierFamily: 'FOU' } as const;
    const legacy = stored.map((e) => ({ id: e.id, type: code[e.type] }));
    expect(editExclusions(FIXTURE, { exclusions: legacy })).toBe(FIXTURE);
  });

  it('a family the Data lists do not know: a stored label stays, a new one is empty', () => {
    const text = FIXTURE.replace(
      /<Code>ANIM0001\|<\/Code>(\s*)<IDInterne>ANIM0001\|<\/IDInterne>(\s*)<Libelle>ANIMATIONS<\/Libelle>/,
      '<Code>OLD0001|</Code>$1<IDInterne>OLD0001|</IDInterne>$2<Libelle>Ancienne famille</Libelle>',
    );
    expect(text).toContain('<Libelle>Ancienne famille</Libelle>');
    const inText = readExclusions(parseConfig(text)).exclusions;
    const unlabelled = inText.map((e) => (e.id === 'OLD0001|' ? { id: e.id, type: 'ART' as const } : e));
    expect(editExclusions(text, { exclusions: unlabelled })).toBe(text);
    const added = editExclusions(text, {
      exclusions: [...unlabelled, { id: 'INCONNUE|', type: 'ART' as const }],
    });
    expect(readExclusions(parseConfig(added)).exclusions.find((e) => e.id === 'INCONNUE|')).toEqual({
      id: 'INCONNUE|',
      libelle: '',
      type: 'ItemFamily',
    });
  });
});

describe('agendas sent with "empty"', () => {
  const view = readExternalCalendars(parseConfig(FIXTURE));

  it('"empty" is no agenda type and a free row; it is never written', () => {
    const mappings = view.mappings.map((m, i) => (i === 0 ? { ID_Salarie: 'empty', ID_Agenda: 'empty' } : m));
    const legacy = editExternalCalendars(FIXTURE, { agendaType: 'empty', mappings });
    const plain = editExternalCalendars(FIXTURE, {
      agendaType: '',
      mappings: mappings.map((m, i) => (i === 0 ? { ID_Salarie: '', ID_Agenda: '' } : m)),
    });
    expect(legacy).toBe(plain);
    expect(legacy).not.toContain('empty');
    const back = readExternalCalendars(parseConfig(legacy));
    expect(back.agendaType).toBe('');
    expect(back.mappings[0]).toEqual({ ID_Salarie: '-1', ID_Agenda: '-1' });
  });
});
