import { ZImportRecordsEnvelope, ZTransactionsEnvelope } from '@synchro/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyItems } from './checked-batches.ts';
import type { AppError } from '../../http/errors.ts';
import { INVALID_JSON_MESSAGE, INVALID_UTF8_MESSAGE, parseJsonBytes } from '../../http/json-body.ts';
import { envelopeItemRanges } from '../../http/json-items.ts';
import { parseConnectorOr400 } from '../../http/validate.ts';

/** A batch body's items located in its bytes, then read a slice at a time (a worker's big batch). */

const bytes = (text: string) => new TextEncoder().encode(text);

/** The items found by envelopeItemRanges, each parsed on its own. */
function itemsOf(body: Uint8Array, name = 'records'): unknown[] | null {
  const ranges = envelopeItemRanges(body, name);
  if (ranges === null) return null;
  return ranges.starts.map((s, k) => JSON.parse(new TextDecoder().decode(body.subarray(s, ranges.ends[k]))));
}

/** What a body read whole gives (its error message when it does not read). */
function whole(body: Uint8Array): unknown {
  try {
    return (parseJsonBytes(body) as { records: unknown[] }).records;
  } catch (err) {
    return (err as AppError).message;
  }
}

describe('envelopeItemRanges', () => {
  it('finds every item of any JSON list, however it is spaced, as the body read whole does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { maxLength: 20 }),
        fc.constantFrom(undefined, 1, '\t', ' \r\n '),
        (list, space) => {
          const body = bytes(JSON.stringify({ records: list }, null, space));
          expect(itemsOf(body)).toEqual(JSON.parse(JSON.stringify(list)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('strings with quotes, backslashes, brackets and accents inside', () => {
    const list = [
      'a"b',
      'c\\',
      '\\"',
      '{[',
      ']}',
      { k: 'x\\\\"]}' },
      'Ã©tÃ© ✓ 𝄞',
      [1, [2, ['"']]],
      -1.5e3,
      true,
      null,
    ];
    expect(itemsOf(bytes(JSON.stringify({ records: list })))).toEqual(list);
    expect(itemsOf(bytes('{"records":[]}'))).toEqual([]);
    expect(itemsOf(bytes(' { "records" : [ ] } \n'))).toEqual([]);
    expect(itemsOf(bytes('{"transactions":[{"ID":"T1"}]}'), 'transactions')).toEqual([{ ID: 'T1' }]);
  });

  it('null for any other body: it is then read whole', () => {
    for (const text of [
      '',
      '[]',
      '{}',
      '{"records":[1],"other":2}',
      '{"other":2,"records":[1]}',
      '{"records":[1],"records":[]}',
      '\uFEFF{"records":[1]}',
      '{"rec\\u006frds":[1]}',
      '{"records":{"a":1}}',
      '{"records":[1,]}',
      '{"records":[1 2]}',
      '{"records":[1]',
      '{"records":[1]}x',
      '{"records":["abc]}',
      '{"records":[{"a":"b}]}',
    ]) {
      expect(envelopeItemRanges(bytes(text), 'records'), text).toBeNull();
    }
  });
});

/** The envelope's error of a body read whole (the message every body got before). */
function wholeEnvelope(body: Uint8Array): string {
  try {
    parseConnectorOr400(ZImportRecordsEnvelope, parseJsonBytes(body));
    return '';
  } catch (err) {
    return (err as AppError).message;
  }
}

describe('bodyItems: the items a slice at a time, with the messages of a body read whole', () => {
  const read = (body: Uint8Array, name = 'records') => {
    const envelope = name === 'records' ? ZImportRecordsEnvelope : ZTransactionsEnvelope;
    try {
      const items = bodyItems(body, name, envelope);
      const out: unknown[] = [];
      for (let k = 0; k < items.count; k += 3) out.push(...items.slice(k, k + 3));
      return out;
    } catch (err) {
      return (err as AppError).message;
    }
  };

  it('the same items as the body read whole', () => {
    const list = Array.from({ length: 10 }, (_, n) => ({
      IDInterne: `R${n}`,
      Enreg: `<a>${'é'.repeat(n)}</a>`,
    }));
    const body = bytes(JSON.stringify({ records: list }));
    expect(read(body)).toEqual(list);
    expect(read(body)).toEqual(whole(body));
  });

  it('an item that is not JSON, or not UTF-8, late in the body: the error of the body read whole', () => {
    const good = JSON.stringify({ IDInterne: 'R', Enreg: '<a/>' });
    const items = Array.from({ length: 9 }, () => good);
    const notJson = bytes(`{"records":[${[...items, '{"IDInterne":tru}'].join(',')}]}`);
    expect(read(notJson)).toBe(INVALID_JSON_MESSAGE);
    // The first items are read (and can be written) before the broken one is met.
    const streamed = bodyItems(notJson, 'records', ZImportRecordsEnvelope);
    expect(streamed.count).toBe(10);
    expect(streamed.slice(0, 3)).toEqual([JSON.parse(good), JSON.parse(good), JSON.parse(good)]);
    expect(() => streamed.slice(9, 10)).toThrow(INVALID_JSON_MESSAGE);
    // Invalid UTF-8 after a JSON fault: read whole, the UTF-8 fault is the one named.
    const text = `{"records":[${[...items, '{"a":tru}', '"\u0000"'].join(',')}]}`;
    const notUtf8 = bytes(text);
    notUtf8[text.lastIndexOf('\u0000')] = 0xff;
    expect(read(notUtf8)).toBe(INVALID_UTF8_MESSAGE);
    expect(whole(notUtf8)).toBe(INVALID_UTF8_MESSAGE);
    // A body whose envelope does not read at all: the same error before any item.
    expect(read(bytes('{"records": ['))).toBe(INVALID_JSON_MESSAGE);
  });

  it('the envelope’s own checks and messages: too many items, not a list, no list', () => {
    const tooMany = bytes(JSON.stringify({ records: Array.from({ length: 501 }, () => ({})) }));
    expect(read(tooMany)).toBe(
      'Requête invalide\u00a0: records\u00a0: au plus 500 enregistrements par requête',
    );
    expect(read(tooMany)).toBe(wholeEnvelope(tooMany));
    const txs = bytes(JSON.stringify({ transactions: Array.from({ length: 1001 }, () => ({})) }));
    expect(read(txs, 'transactions')).toBe(
      'Requête invalide\u00a0: transactions\u00a0: au plus 1\u202f000 transactions par requête',
    );
    expect(read(bytes('{"records":{}}'))).toMatch(
      /^Requête invalide\u00a0: records\u00a0: liste d’enregistrements attendue/,
    );
    expect(read(bytes('{}'))).toBe('Requête invalide\u00a0: records\u00a0: champ obligatoire');
    // Another member beside the list: read whole, the list is used as before.
    expect(read(bytes('{"records":[{"a":1}],"x":2}'))).toEqual([{ a: 1 }]);
  });
});
