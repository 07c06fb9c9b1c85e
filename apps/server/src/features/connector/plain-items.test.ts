import { parseConnectorItem, ZImportRecord, ZTransaction } from '@synchro/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importRecord, transaction } from '../../../test/helpers/connector.ts';
import { plainImportRecord, plainTransaction } from './plain-items.ts';

/** The plain reading of a batch's items gives the schema's output, or leaves the item to it. */

const texts = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  fc.constantFrom('', ' ', '\t\n', 'a\u0000b', 'a\u0001b', '\uD800', '\uDC00x', '\uFFFE', '😀', 'CrÃ©ation'),
  fc.constantFrom('x'.repeat(100), 'x'.repeat(101), 'x'.repeat(255), 'x'.repeat(256)),
  fc.constantFrom(12, 0, -3, 1.5, 2 ** 60, true, null, undefined, {}, []),
);
const times = fc.oneof(
  fc.constantFrom(
    '2025-11-14T09:12:00',
    '2025-11-14T09:12:00.123',
    '2025-11-14T09:12:00+01:00',
    '2025-11-14T09:12:00Z',
    ' 2025-11-14T09:12:00 ',
    '2025-02-30T09:12:00',
    '2025-11-14T24:00:00',
    '14/11/2025 09:12',
    `2025-11-14T09:12:00${' '.repeat(60)}`,
  ),
  texts,
);
const integers = fc.oneof(
  fc.integer(),
  fc.constantFrom(
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31),
    -(2 ** 31) - 1,
    -0,
    1.5,
    NaN,
    Infinity,
    '3',
    ' 4 ',
    'trois',
  ),
  fc.constantFrom(null, undefined, true),
);
const codes = fc.constantFrom(0, 1, -1, 2, -0, '1', '0', true, false, null, undefined, 1.0000001);
const logs = fc.oneof(texts, fc.constantFrom('x'.repeat(1_000_000), 'x'.repeat(1_000_001)));
const xml = fc.oneof(fc.constantFrom('<a/>', '  <a/> ', '', '   ', '\n', '\u00a0', '\uFEFF'), texts);
const files = fc.constantFrom(undefined, null, { Nom: 'a.pdf', Contenu: 'QUJD' }, 'x');

/** The item with some members left out (absent) and sometimes one more that no schema knows. */
function items<T extends Record<string, fc.Arbitrary<unknown>>>(members: T) {
  return fc
    .tuple(fc.record(members, { requiredKeys: [] }), fc.boolean())
    .map(([item, extra]) => (extra ? { ...item, Autre: 1 } : item));
}

/** The members of an output that hold a value (the schema may write `Log: undefined`). */
const defined = (value: unknown) =>
  Object.fromEntries(Object.entries(value as object).filter(([, v]) => v !== undefined));

function sameAsSchema(schema: typeof ZImportRecord | typeof ZTransaction, plain: (v: unknown) => unknown) {
  return (item: unknown): boolean => {
    const value = plain(item);
    if (value === null) return false;
    const checked = parseConnectorItem(schema, item, 'x');
    expect(checked.ok).toBe(true);
    if (checked.ok) expect(value).toStrictEqual(defined(checked.value));
    return true;
  };
}

describe('plainImportRecord / plainTransaction', () => {
  it('a record read plainly is what ZImportRecord gives; any other is left to it', () => {
    let plain = 0;
    const same = sameAsSchema(ZImportRecord, plainImportRecord);
    fc.assert(
      fc.property(
        items({
          IDInterne: texts,
          TypeEnreg: texts,
          RefDoc: texts,
          DateHeure: times,
          NumLigne: integers,
          TypeElement: texts,
          Etat: codes,
          Log: logs,
          Enreg: xml,
          Fichier: files,
        }),
        (item) => {
          if (same(item)) plain += 1;
        },
      ),
      { seed: 20261127, numRuns: 3000 },
    );
    expect(plain).toBeGreaterThan(0);
    for (const odd of [null, [], 'x', 3]) expect(plainImportRecord(odd)).toBeNull();
  });

  it('a transaction read plainly is what ZTransaction gives; any other is left to it', () => {
    let plain = 0;
    const same = sameAsSchema(ZTransaction, plainTransaction);
    fc.assert(
      fc.property(
        items({
          ID: texts,
          Err: codes,
          DateHeureTrt: times,
          NumTransaction: texts,
          TypeDoc: texts,
          RefDoc: texts,
          IDTablette: texts,
          LibelleTablette: texts,
          Log: logs,
        }),
        (item) => {
          if (same(item)) plain += 1;
        },
      ),
      { seed: 20261127, numRuns: 3000 },
    );
    expect(plain).toBeGreaterThan(0);
  });

  it('reads the connector’s usual items plainly (the schema is for the others)', () => {
    const record = importRecord({ Log: 'Erreur Ã  lâ€™import' });
    expect(plainImportRecord(record)).toStrictEqual(defined(parseZ(ZImportRecord, record)));
    expect(plainImportRecord(importRecord({ NumLigne: null, TypeEnreg: null, Log: null }))).not.toBeNull();
    const tx = transaction();
    expect(plainTransaction(tx)).toStrictEqual(defined(parseZ(ZTransaction, tx)));
    expect(plainTransaction(transaction({ Log: undefined, Err: 1 }))).not.toBeNull();
    // Left to the schema: tolerated forms it normalises, and files.
    expect(plainImportRecord(importRecord({ NumLigne: '3' }))).toBeNull();
    expect(plainImportRecord(importRecord({ IDInterne: 812 }))).toBeNull();
    expect(plainImportRecord(importRecord({ Fichier: { Nom: 'a', Contenu: 'QUJD' } }))).toBeNull();
    expect(plainTransaction(transaction({ Err: true }))).toBeNull();
  });
});

function parseZ(schema: typeof ZImportRecord | typeof ZTransaction, item: unknown): unknown {
  const checked = parseConnectorItem(schema, item, 'x');
  if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
  return checked.value;
}
