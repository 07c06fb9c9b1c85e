/**
 * Smoke run of the config-xml benchmark inside `npm test`: its whole code path (the edits'
 * payloads, every row, the goals) on the fixture (the same bytes as
 * /work/shared/fixtures/config/connexion-ebp-gescom.xml) with one run, so that a change of the engine that
 * breaks the bench (as the refused moved password once did) fails here. No timing is asserted.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runBench } from './bench.ts';
import { generateDocument } from './generate.ts';

const here = dirname(fileURLToPath(import.meta.url));
const fixture = readFileSync(
  join(here, '../../packages/config-xml/test/fixtures/connexion-ebp-gescom.xml'),
  'utf8',
);

describe('bench/config-xml smoke run', () => {
  it('runs every row on the fixture and on a grown document and judges the goals', () => {
    const grown = generateDocument(fixture, 400_000);
    const result = runBench(fixture, [
      { label: 'fixture', text: fixture, runs: 1 },
      // Labelled as the 5 MB case so that the goals' code path runs too (the figures mean nothing).
      { label: '5 MB', text: grown, runs: 1 },
    ]);
    const names = result.rows.map((r) => r.name);
    expect(names).toContain('bare saxes pass (floor)');
    expect(names).toContain('full read: parseConfig + every reader');
    expect(names.filter((n) => n.startsWith('section edit:'))).toHaveLength(4);
    expect(names).toContain('diagnoseConfig');
    for (const row of result.rows) {
      if (row.name.startsWith('`xmllint')) continue;
      for (const value of row.values) expect(value).toBeGreaterThanOrEqual(0);
    }
    expect(result.table).toHaveLength(2 + result.rows.length);
    expect(result.goals.filter((g) => g.startsWith('- 5 MB:'))).toHaveLength(4);
    expect(result.goals.join('\n')).not.toContain('not measured');
  });
});
