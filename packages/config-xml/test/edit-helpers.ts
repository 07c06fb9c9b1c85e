import { expect } from 'vitest';
import { parseConfig } from '../src/index.ts';

/**
 * Asserts that `after` differs from `before` only inside the root child `section`: the bytes before
 * and after it are identical. When the section was missing in `before`, it must be the only thing
 * added (with the document's line end and indentation).
 */
export function expectOnlySectionChanged(before: string, after: string, section: string): void {
  const a = parseConfig(before);
  const b = parseConfig(after);
  const rb = b.range(section);
  const ra = a.range(section);
  if (!rb) {
    expect(after).toBe(before);
    return;
  }
  if (ra) {
    expect(after.slice(0, rb.start)).toBe(before.slice(0, ra.start));
    expect(after.slice(rb.end)).toBe(before.slice(ra.end));
  } else {
    // created: removing it (and the line end + indentation that came with it) gives the original
    const nl = a.layout.newline;
    const withLineBefore =
      after.slice(0, rb.start).replace(new RegExp(`${nl}[ \\t]*$`), '') + after.slice(rb.end);
    const withLineAfter =
      after.slice(0, rb.start) + after.slice(rb.end).replace(new RegExp(`^${nl}[ \\t]*`), '');
    expect([withLineBefore, withLineAfter]).toContain(before);
    // every other section kept its bytes and order
    expect(
      b.layout.sections.filter((s) => s.name !== section).map((s) => after.slice(s.start, s.end)),
    ).toEqual(a.layout.sections.map((s) => before.slice(s.start, s.end)));
  }
}
