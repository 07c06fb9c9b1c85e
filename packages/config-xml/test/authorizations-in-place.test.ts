/**
 * readTerminals and readGlobalAuthorizations read the terminals' authorisation lists in place
 * (an ID is first compared with the one found at the same place of the previous terminal, an
 * Autorise value decided without cutting it from the text). They must give exactly what reading
 * every value as a string gives: the straightforward readers are kept here as the reference and
 * compared on generated Terminaux (IDs in any order, repeated, missing, blank, padded, written
 * with references or accents, not global; Autorise missing, padded, odd) and on the fixture.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig, readGlobalAuthorizations, readTerminals } from '../src/index.ts';
import type { ConfigDocument } from '../src/document.ts';
import { FIXTURE } from './helpers.ts';

/** The global list as it was read before: every ID as a string, a set of the seen ones. */
function referenceGlobal(doc: ConfigDocument): { ID: string; Libelle: string }[] {
  const ix = doc.index;
  const seen = new Set<string>();
  const out: { ID: string; Libelle: string }[] = [];
  const add = (a: number): void => {
    const ID = (ix.childValue(a, 'ID') ?? '').trim();
    if (ID === '' || seen.has(ID)) return;
    seen.add(ID);
    out.push({ ID, Libelle: ix.childValue(a, 'Libelle') ?? '' });
  };
  for (const a of ix.children(ix.path(ix.child(0, 'Data'), 'Autorisations'), 'Autorisation')) add(a);
  if (out.length > 0) return out;
  for (const t of ix.children(ix.child(0, 'Terminaux'), 'Terminal'))
    for (const a of ix.children(ix.child(t, 'Autorisations'), 'Autorisation')) add(a);
  return out;
}

/** A terminal's authorisations as they were read before: a map from ID to value, first wins. */
function referenceAuthorizations(doc: ConfigDocument): { ID: string; Libelle: string; Autorise: number }[][] {
  const ix = doc.index;
  const global = referenceGlobal(doc);
  return ix.children(ix.child(0, 'Terminaux'), 'Terminal').map((t) => {
    const values = new Map<string, number>();
    for (const a of ix.children(ix.child(t, 'Autorisations'), 'Autorisation')) {
      const id = (ix.childValue(a, 'ID') ?? '').trim();
      if (id === '' || values.has(id)) continue;
      const v = (ix.childValue(a, 'Autorise') ?? '').trim();
      values.set(id, v === '1' ? 1 : v === '-1' ? -1 : 0);
    }
    return global.map((g) => ({ ID: g.ID, Libelle: g.Libelle, Autorise: values.get(g.ID) ?? 0 }));
  });
}

const idText = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('1', '2', '3', '4', '10', '42') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      ' 2',
      '3 ',
      '\n4\n',
      '&#49;',
      '1&amp;',
      'Ã©',
      'é',
      '<!-- c -->1',
      '1<![CDATA[0]]>',
    ),
  },
);
const autoriseText = fc.constantFrom(
  '1',
  '-1',
  '0',
  '',
  ' 1 ',
  '\t-1',
  '2',
  '&#49;',
  '-&#49;',
  '1<!---->',
  'x',
);
const entry = fc
  .tuple(
    fc.option(idText, { freq: 12 }),
    fc.option(autoriseText, { freq: 8 }),
    fc.constantFrom('L', 'Libellé'),
  )
  .map(
    ([id, autorise, libelle]) =>
      `<Autorisation>${id === null ? '' : `<ID>${id}</ID>`}${autorise === null ? '' : `<Autorise>${autorise}</Autorise>`}<Libelle>${libelle}</Libelle></Autorisation>`,
  );
/** Lists mostly alike from one terminal to the next (the fast path), sometimes not. */
const terminals = fc
  .array(entry, { maxLength: 6 })
  .chain((base) =>
    fc.array(
      fc.oneof(
        { weight: 3, arbitrary: fc.constant(base) },
        fc.array(fc.tuple(fc.nat(8), entry), { maxLength: 3 }).map((changes) => {
          const list = [...base];
          for (const [at, e] of changes) list.splice(at % (list.length + 1), at % 2, e);
          return list;
        }),
        fc.array(entry, { maxLength: 6 }),
      ),
      { maxLength: 5 },
    ),
  )
  .map((lists) =>
    lists
      .map((list, i) =>
        i % 5 === 4
          ? '<Terminal><Nom>sans liste</Nom></Terminal>'
          : `<Terminal><Nom>T${i}</Nom><Autorisations>${list.join('')}</Autorisations></Terminal>`,
      )
      .join(''),
  );

describe('terminal authorisations read in place', () => {
  it('give what reading every value as a string gives', () => {
    fc.assert(
      fc.property(terminals, fc.boolean(), (xml, withData) => {
        const data = withData
          ? '<Data><Autorisations><Autorisation><ID> 2</ID><Libelle>Deux</Libelle></Autorisation><Autorisation><ID>9</ID><Libelle>Neuf</Libelle></Autorisation></Autorisations></Data>'
          : '';
        const doc = parseConfig(`<Connexion>${data}<Terminaux>${xml}</Terminaux></Connexion>`);
        expect(readGlobalAuthorizations(doc).authorizations).toEqual(referenceGlobal(doc));
        expect(readTerminals(doc).terminals.map((t) => t.authorizations)).toEqual(
          referenceAuthorizations(doc),
        );
      }),
      { seed: 20261127, numRuns: 3000 },
    );
  });

  it('on the fixture', () => {
    const doc = parseConfig(FIXTURE);
    expect(readGlobalAuthorizations(doc).authorizations).toEqual(referenceGlobal(doc));
    expect(readTerminals(doc).terminals.map((t) => t.authorizations)).toEqual(referenceAuthorizations(doc));
  });
});
