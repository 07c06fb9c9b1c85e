import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  displayValue,
  escapeText,
  parseConfig,
  readDataLists,
  readExternalCalendars,
  readGlobalAuthorizations,
  readTerminals,
} from '../src/index.ts';
import { isPlainAscii } from '../src/xml/index.ts';
import { FIXTURE } from './helpers.ts';

/**
 * The element index's fast paths (issue 18): a plain ASCII value is returned as its source slice,
 * and names looked up once (childWithId) find what child() finds.
 */
describe('ElementIndex values', () => {
  it('gives every element of the fixture the display value of its XML text', () => {
    const ix = parseConfig(FIXTURE).index;
    for (let el = 0; el < ix.count; el++) expect(ix.value(el)).toBe(displayValue(ix.xmlText(el)));
  });

  it('gives any stored value (entities, CR, accents, CDATA, comments) its display value', () => {
    const piece = fc.constantFrom(
      'a',
      ' ',
      '&amp;',
      '&amp;apos;',
      '&#13;',
      '\r\n',
      'Ã©',
      'é',
      '&lt;',
      '<![CDATA[x&y]]>',
      '<!--c-->',
      '€',
      '|',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const ix = parseConfig(`<Connexion><V>${pieces.join('')}</V></Connexion>`).index;
        expect(ix.value(1)).toBe(displayValue(ix.xmlText(1)));
      }),
      { numRuns: 500 },
    );
  });

  it('takes only ASCII without markup, reference or CR as plain', () => {
    expect(isPlainAscii('x<V>abc 12|-_</V>', 4, 13)).toBe(true);
    for (const s of ['a&amp;b', 'a<!--c-->', 'a\rb', 'Ã©', 'é'])
      expect(isPlainAscii(`>${s}<`, 1, s.length + 1)).toBe(false);
    expect(isPlainAscii(escapeText('a & b', '\n'), 0, 9)).toBe(false);
  });

  it('finds with childWithId what child finds by name', () => {
    const ix = parseConfig(FIXTURE).index;
    for (const name of ['Info', 'Sources', 'Data', 'Terminaux', 'Absent']) {
      expect(ix.childWithId(0, ix.idOf(name))).toBe(ix.child(0, name));
    }
    expect(ix.childWithId(-1, ix.idOf('Info'))).toBe(-1);
  });
});

describe('views read once per document (ConfigDocument.memo)', () => {
  it('hands out copies: changing one view leaves the next reads as they were', () => {
    const doc = parseConfig(FIXTURE);
    const fresh = parseConfig(FIXTURE);
    const lists = readDataLists(doc);
    const calendars = readExternalCalendars(doc);
    const global = readGlobalAuthorizations(doc);
    lists.salaries.splice(0, 1);
    const first = lists.techniciens[0];
    if (first) first.Nom = 'changé';
    calendars.employees.length = 0;
    global.authorizations.splice(0);
    expect(readDataLists(doc)).toEqual(readDataLists(fresh));
    expect(readExternalCalendars(doc)).toEqual(readExternalCalendars(fresh));
    expect(readGlobalAuthorizations(doc)).toEqual(readGlobalAuthorizations(fresh));
    expect(readTerminals(doc)).toEqual(readTerminals(fresh));
  });
});
