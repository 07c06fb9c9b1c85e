import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATA_KINDS, replaceInData } from '../src/diagnostic/checks/occurrences.ts';
import { DOUBLE_ESCAPED } from '../src/diagnostic/checks/patterns.ts';
import { segments, segmentTable, withSegmentTable, type TSegmentTable } from '../src/diagnostic/segments.ts';
import { lineIndex, lineStarts, lineOf } from '../src/diagnostic/lines.ts';
import { FIXTURE } from './helpers.ts';

const used = (t: TSegmentTable) => ({
  count: t.count,
  starts: [...t.starts.subarray(0, t.count)],
  ends: [...t.ends.subarray(0, t.count)],
  kinds: [...t.kinds.subarray(0, t.count)],
  nameEnds: [...t.nameEnds.subarray(0, t.count)],
  flags: [...t.flags.subarray(0, t.count)],
});

/** Pieces of broken and valid XML, double escaping included (also inside names and stray `<`). */
const piece = fc.constantFrom(
  '<a>',
  '</a>',
  '<b x="&amp;apos;"/>',
  '&amp;apos;',
  '&amp;amp;lt;',
  '<&amp;quot;',
  '</&amp;#13;',
  '<n&amp;gt;m>',
  'text',
  ' ',
  '<!--&amp;apos;-->',
  '<![CDATA[&amp;lt;]]>',
  '<?pi &amp;amp;?>',
  '<',
  '>',
  '"',
  '/>',
);

describe('segment table', () => {
  it('cuts the text as the segments generator does', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        const table = segmentTable(text);
        const list = [...segments(text)];
        expect(table.count).toBe(list.length);
        list.forEach((s, k) => {
          expect([table.starts[k], table.ends[k]]).toEqual([s.start, s.end]);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('moved after undoing double escaping, equals the table of the result', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        const moved = withSegmentTable(() => {
          segmentTable(text);
          const out = replaceInData(text, DOUBLE_ESCAPED, (m) => `&${m.slice(5)}`, DATA_KINDS, true).text;
          return { out, table: used(segmentTable(out)) };
        });
        expect(moved.table).toEqual(used(segmentTable(moved.out)));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('line index', () => {
  it('gives the lines and contents of the whole index, whatever the order of the questions', () => {
    const starts = lineStarts(FIXTURE);
    const lines = lineIndex(FIXTURE);
    for (const offset of [FIXTURE.length - 1, 0, 5000, 120, FIXTURE.length, 77_000])
      expect(lines.lineOf(offset)).toBe(lineOf(starts, offset));
    const other = lineIndex(FIXTURE);
    expect(other.content(3)).toBe(FIXTURE.split('\n')[2]?.replace(/\r$/, ''));
    expect(other.count).toBe(starts.length);
    expect(lineIndex('a\nb').content(2)).toBe('b');
    expect(lineIndex('a\nb').content(9)).toBe('');
  });
});
