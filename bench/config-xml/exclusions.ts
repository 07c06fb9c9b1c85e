/**
 * Exclusions save benchmark: npx tsx bench/config-xml/exclusions.ts [--runs N] [--no-readme]
 * The audit's cases (/tmp/audit-e, 2026-11-29): families added to the fixture, and stored
 * families replaced by as many others or removed, through editExclusions on the stored text (its
 * parse and the payload's check included, as the server's edit of a save). Writes the table to
 * bench/README.md under "## config-xml: exclusions save".
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as engine from '@synchro/config-xml';
import { describeMachine } from './machine.ts';
import { formatMs, time } from './measure.ts';
import { writeSection } from './readme.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const runsArg = process.argv.indexOf('--runs');
const runs = runsArg === -1 ? 5 : Number(process.argv[runsArg + 1]);

/** `n` article families `${prefix}i|`, as the exclusions screen sends them. */
function families(n: number, prefix: string) {
  return {
    exclusions: Array.from({ length: n }, (_, i) => ({
      type: 'ItemFamily' as const,
      id: `${prefix}${i}|`,
      libelle: `L${i}`,
    })),
  };
}

function main(): void {
  const fixture = readFileSync(
    join(root, 'packages/config-xml/test/fixtures/connexion-ebp-gescom.xml'),
    'utf8',
  );
  const rows: [string, () => unknown][] = [];
  for (const n of [50_000, 100_000]) {
    const label = String(n).replace(/\B(?=(\d{3})+$)/g, ' ');
    const added = families(n, 'F');
    const stored = engine.editExclusions(fixture, added);
    const others = families(n, 'G');
    rows.push([`adding ${label} families to the fixture`, () => engine.editExclusions(fixture, added)]);
    rows.push([
      `replacing ${label} stored families with ${label} others`,
      () => engine.editExclusions(stored, others),
    ]);
    rows.push([`removing ${label} stored families`, () => engine.editExclusions(stored, { exclusions: [] })]);
  }
  const lines = ['| edit (stored text in, new text out) | median ms |', '|---|---:|'];
  for (const [label, task] of rows) {
    const ms = time(runs, task).medianMs;
    process.stderr.write(`${label}: ${formatMs(ms)} ms\n`);
    lines.push(`| ${label} | ${formatMs(ms)} |`);
  }
  const section = [
    '## config-xml: exclusions save',
    '',
    'Run `npx tsx bench/config-xml/exclusions.ts` (the documents are built in memory from the fixture).',
    `Machine: ${describeMachine()}. Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    `editExclusions on the stored text (its parse and the payload's check included). Medians of ${runs} runs after a warm-up.`,
    '',
    ...lines,
    '',
    '- Before c14a74b (a scan of the Valeurs per family removed or added, quadratic), the audit measured',
    '  1.7 s / 4.7 s to add 50 000 / 100 000 families and 21.8 s to replace 100 000 with 100 000 others.',
    '- The server edits a save this big in a worker thread (apps/server features/configuration/edit-task.ts).',
    '',
  ].join('\n');
  console.log(section);
  if (!process.argv.includes('--no-readme'))
    writeSection(join(root, 'bench/README.md'), section, '## config-xml: exclusions save');
}

main();
