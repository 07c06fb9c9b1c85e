import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDataElement, ConfigXmlError, parseConfig } from '../src/index.ts';
import { provedByStoredData } from '../src/connector/data-delta.ts';
import { FIXTURE } from './helpers.ts';

/**
 * The connector's Data checked against the stored one (issue 18): only the part that differs is
 * scanned, and every answer (the element, or the refusal with its code, message and position) is
 * the one of the full check.
 */
const doc = parseConfig(FIXTURE);
const stored = doc.sectionText('Data') ?? '';

function outcome(run: () => string): unknown {
  try {
    return { ok: run() };
  } catch (e) {
    if (!(e instanceof ConfigXmlError)) throw e;
    return { code: e.code, message: e.message, line: e.line, column: e.column };
  }
}

/** Pieces inserted into the stored Data: valid, broken and hostile. */
const piece = fc.constantFrom(
  '<SALARIE><IDInterne>n</IDInterne></SALARIE>',
  '<X/>',
  '</SALARIES>',
  '<SALARIES>',
  '<A>',
  '</A>',
  '</Data>',
  '<Data>',
  'texte',
  '&amp;',
  '&nbsp;',
  '&#0;',
  '\u0001',
  ']]>',
  '<!--c-->',
  '<!--',
  '<![CDATA[x]]>',
  '<?pi x?>',
  '<!DOCTYPE d>',
  '<a b="1" b="2"/>',
  '<',
  '>',
  '"',
  '\r\n    ',
  '',
);

describe('checkDataElement against the stored Data', () => {
  it('answers as the full check for any edit of the stored Data', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ at: fc.nat(stored.length), remove: fc.nat(40), insert: piece }), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.constantFrom('', '  \r\n'),
        (edits, around) => {
          let text = stored;
          for (const { at, remove, insert } of edits) {
            const where = Math.min(at, text.length);
            text = text.slice(0, where) + insert + text.slice(Math.min(text.length, where + remove));
          }
          text = around + text + around;
          expect(outcome(() => checkDataElement(text, doc))).toEqual(outcome(() => checkDataElement(text)));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('scans only the difference for the connector’s usual Data (one more employee)', () => {
    const more = stored.replace(/<\/Data>$/, '  <SALARIE><IDInterne>n</IDInterne></SALARIE>\r\n  </Data>');
    expect(provedByStoredData(more, 0, more.length, doc)).toBe(true);
    expect(provedByStoredData(stored, 0, stored.length, doc)).toBe(true);
    const inside = stored.replace('<SALARIES>', '<SALARIES><Nouveau>1</Nouveau>');
    expect(provedByStoredData(inside, 0, inside.length, doc)).toBe(true);
  });

  it('leaves to the full check a change of Data’s own tags, a fault or depth beyond the limit', () => {
    const renamed = stored.replace(/^<Data>/, '<Data a="1">');
    expect(provedByStoredData(renamed, 0, renamed.length, doc)).toBe(false);
    const broken = stored.replace('</SALARIES>', '</SALARIE>');
    expect(provedByStoredData(broken, 0, broken.length, doc)).toBe(false);
    const deep = stored.replace('<SALARIES>', `<SALARIES>${'<d>'.repeat(260)}${'</d>'.repeat(260)}`);
    expect(provedByStoredData(deep, 0, deep.length, doc)).toBe(false);
    expect(outcome(() => checkDataElement(deep, doc))).toEqual(outcome(() => checkDataElement(deep)));
    const noData = parseConfig('<Connexion><Info/></Connexion>');
    expect(provedByStoredData(stored, 0, stored.length, noData)).toBe(false);
  });
});
