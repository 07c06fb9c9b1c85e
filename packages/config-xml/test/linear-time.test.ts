import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkRecord,
  ConfigXmlError,
  decodeRecordText,
  diagnoseConfig,
  MAX_ATTRIBUTES,
  parseConfig,
  parseRecord,
  readAutomateAnswer,
  readTerminals,
  recordAttachments,
  redactConfig,
  repairConfig,
} from '../src/index.ts';

/**
 * Issue 14, « Linear time, always »: every pass of the engine over untrusted text keeps its time
 * per character within a small factor of a plain pass over the same characters, whatever the shape
 * of the text. Each case is timed at two sizes (n and 8n, best of several tries, beside a plain
 * pass timed the same way): a quadratic pass (100 000 attributes checked for duplicates in a list
 * took 9 s for 1 MB) grows 64 times, far past the bound, however loaded the machine.
 */

const config = readFileSync(new URL('./fixtures/connexion-ebp-gescom.xml', import.meta.url), 'utf8');
const inConfig = (inner: string) => config.replace('</Connexion>', `${inner}</Connexion>`);

const attributes = (n: number) => `<r ${Array.from({ length: n }, (_, k) => `a${k}="1"`).join(' ')}/>`;

/** Adversarial shapes of `n` repetitions (a record's XML). */
const SHAPES: Record<string, (n: number) => string> = {
  // n / 4: at 8n still under the limit of attributes (MAX_ATTRIBUTES), so that the check runs.
  'many attributes': (n) => attributes(Math.floor(n / 4)),
  'many siblings': (n) => `<r>${'<e>1</e>'.repeat(n)}</r>`,
  'a long name': (n) => `<r><${'a'.repeat(n * 4)}>1</${'a'.repeat(n * 4)}></r>`,
  'character references': (n) => `<r>${'&#233;'.repeat(n)}</r>`,
  'references in an attribute': (n) => `<r a="${'&#x20AC;&amp;'.repeat(n)}"/>`,
  'many text nodes': (n) => `<r>${'a<!--c-->'.repeat(n)}</r>`,
  'deep nesting at the limit': (n) => `${'<d>'.repeat(255)}${'x'.repeat(n * 4)}${'</d>'.repeat(255)}`,
  'double-encoded text': (n) => `<r>${'Ã©tÃ© '.repeat(n)}</r>`,
  'many short records in one': (n) => `<r>${'<SyncNuxiDev><A>1</A></SyncNuxiDev>'.repeat(n / 4)}</r>`,
  'entities after many text nodes': (n) => `<r>${'<e>1</e>'.repeat(n)}&amp;</r>`,
  'many CDATA sections': (n) => `<r>${'a<![CDATA[b]]>'.repeat(n)}</r>`,
};

/** The passes over untrusted text, each with the document it reads. */
const PASSES: Record<string, (shape: string) => () => unknown> = {
  'record check': (t) => () => parseRecord(t),
  'record decoding': (t) => () => decodeRecordText(t),
  'record attachments': (t) => () => recordAttachments(t),
  'configuration read': (t) => {
    const doc = inConfig(t);
    return () => readTerminals(parseConfig(doc));
  },
  diagnostic: (t) => {
    const doc = inConfig(t);
    return () => diagnoseConfig(doc);
  },
  repair: (t) => {
    const doc = inConfig(t);
    return () => repairConfig(doc);
  },
  redaction: (t) => {
    const doc = inConfig(t);
    return () => redactConfig(doc);
  },
};

function bestOf(tries: number, fn: () => unknown): number {
  let best = Infinity;
  for (let k = 0; k < tries; k++) {
    const start = performance.now();
    try {
      fn();
    } catch (err) {
      if (!(err instanceof ConfigXmlError)) throw err;
    }
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** A plain pass over the characters: the floor of any pass. */
function plainPass(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h + text.charCodeAt(i)) | 0;
  return h;
}

/** How many times more time than a plain pass the pass takes per character, at n and at 8n. */
function growth(shape: (n: number) => string, pass: (t: string) => () => unknown, n: number) {
  const small = shape(n);
  const big = shape(n * 8);
  const run = { small: pass(small), big: pass(big) };
  bestOf(1, run.small);
  bestOf(1, run.big);
  const ratio = (text: string, fn: () => unknown) =>
    bestOf(3, fn) /
    Math.max(
      bestOf(3, () => plainPass(text)),
      0.01,
    );
  return { atN: ratio(small, run.small), at8N: ratio(big, run.big) };
}

describe('linear time over untrusted text', () => {
  it('every pass, on every adversarial shape: time per character does not grow with the size', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(SHAPES)),
        fc.constantFrom(...Object.keys(PASSES)),
        fc.integer({ min: 2_000, max: 4_000 }),
        (shapeName, passName, n) => {
          const shape = SHAPES[shapeName] as (n: number) => string;
          const pass = PASSES[passName] as (t: string) => () => unknown;
          // Three tries: a loaded machine may slow one run; a quadratic pass is slow every time.
          const tries = [growth(shape, pass, n), growth(shape, pass, n), growth(shape, pass, n)];
          const best = Math.min(...tries.map((g) => g.at8N / Math.max(g.atN, 1)));
          // At 8n a quadratic pass costs 8 times as much per character; a linear one 1 to 2, and
          // up to 3.2 was seen in the full parallel run (2 cores, every suite at once): 4 still
          // tells the two apart.
          expect(best, `${passName} on ${shapeName}`).toBeLessThan(4);
        },
      ),
      { numRuns: 25, seed: 14 },
    );
  });

  it('the check of the connector’s batches (its lean pass first, then the scanner), on every shape', () => {
    for (const [shapeName, shape] of Object.entries(SHAPES)) {
      const pass = (t: string) => () => checkRecord(t);
      const tries = [growth(shape, pass, 3_000), growth(shape, pass, 3_000), growth(shape, pass, 3_000)];
      const best = Math.min(...tries.map((g) => g.at8N / Math.max(g.atN, 1)));
      expect(best, `checkRecord on ${shapeName}`).toBeLessThan(3);
    }
  });

  it("the automate's answer (its RetInfo cleaned for the screen), on every shape", () => {
    // Kept under the answer's 64 KB at 8n.
    const retInfo: Record<string, (n: number) => string> = {
      'blanks then a letter': (n) => `${' '.repeat(n)}x`,
      'blanks on every line': (n) => 'a \t\u00a0 /n'.repeat(n / 8),
      'many empty lines': (n) => 'a\n\n\n\n'.repeat(n / 5),
      'nested references': (n) => '&amp;amp;#233;'.repeat(n / 14),
    };
    const pass = (t: string) => () =>
      readAutomateAnswer(`<R><RetSync>0</RetSync><RetInfo>${t}</RetInfo></R>`);
    for (const [shapeName, shape] of Object.entries(retInfo)) {
      const tries = [growth(shape, pass, 2_000), growth(shape, pass, 2_000), growth(shape, pass, 2_000)];
      const best = Math.min(...tries.map((g) => g.at8N / Math.max(g.atN, 1)));
      expect(best, `readAutomateAnswer on ${shapeName}`).toBeLessThan(3);
    }
  });

  it('refuses an element with more than 10 000 attributes, naming the limit', () => {
    expect(() => parseRecord(attributes(MAX_ATTRIBUTES + 1))).toThrow(
      /Trop d’attributs dans <r> \(plus de 10\u00a0000\)/,
    );
    expect(parseRecord(attributes(MAX_ATTRIBUTES)).index).toBeDefined();
  });
});
