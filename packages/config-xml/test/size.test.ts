import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSize } from '../src/xml/scan.ts';

/** The UTF-8 count checkSize's message reports (a high surrogate takes the unit after it). */
function referenceBytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function outcome(text: string, max: number): string {
  try {
    checkSize(text, max);
    return 'ok';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('checkSize (issue 18: native count first)', () => {
  it('refuses exactly the texts over the limit, lone surrogates included', () => {
    const unit = fc.constantFrom('a', 'é', '€', '\ud83d\ude00', '\ud83d', '\ude00', '\ud83d\ud83d');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), fc.nat(120), (units, max) => {
        const text = units.join('');
        // As before the native count: a text of at most max / 3 units passes without a count.
        const over = text.length * 3 > max && (text.length > max || referenceBytes(text) > max);
        const answer = outcome(text, max);
        expect(answer === 'ok').toBe(!over);
      }),
      { numRuns: 3000 },
    );
  });
});
