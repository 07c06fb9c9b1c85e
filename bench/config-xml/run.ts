/**
 * config-xml benchmark: npx tsx bench/config-xml/run.ts [--runs N] [--no-50]
 * Generates (not committed) 5 MB and 50 MB documents from the fixture, then runs bench.ts on the
 * fixture and on both. Prints a markdown table and writes it to bench/README.md under
 * "## config-xml".
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBench, type TBenchCase } from './bench.ts';
import { generateDocument } from './generate.ts';
import { describeMachine } from './machine.ts';
import { writeSection } from './readme.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
export const fixturePath = join(root, 'packages/config-xml/test/fixtures/connexion-ebp-gescom.xml');
const generatedDir = join(here, '.generated');
const runsArg = process.argv.indexOf('--runs');
const baseRuns = runsArg === -1 ? 7 : Number(process.argv[runsArg + 1]);
const with50 = !process.argv.includes('--no-50');

function main(): void {
  const fixture = readFileSync(fixturePath, 'utf8');
  mkdirSync(generatedDir, { recursive: true });
  const cases: TBenchCase[] = [{ label: 'fixture', path: fixturePath, text: fixture, runs: baseRuns * 3 }];
  const sizes: [string, number, number][] = [['5 MB', 5_000_000, baseRuns]];
  if (with50) sizes.push(['50 MB', 50_000_000, Math.max(3, Math.ceil(baseRuns / 2))]);
  for (const [label, bytes, runs] of sizes) {
    const text = generateDocument(fixture, bytes);
    const path = join(generatedDir, `connexion-${label.replace(' ', '')}.xml`);
    writeFileSync(path, text);
    cases.push({ label, path, text, runs });
  }
  const { table, goals } = runBench(fixture, cases, (line) => process.stderr.write(`${line}\n`));
  const section = [
    '## config-xml',
    '',
    `Run \`npx tsx bench/config-xml/run.ts\` (documents generated under bench/config-xml/.generated/, not committed).`,
    `Machine: ${describeMachine()}. Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    'Medians of N runs after a warm-up, all in one process; on a shared machine they move by up to ~2× between runs.',
    'The goals are judged on paired ratios (bench/config-xml/paired.ts: each round times the operation and its floor one after the other, median of the rounds), measured in this same run after the table.',
    '',
    ...table,
    '',
    ...goals,
    '',
  ].join('\n');
  console.log(section);
  if (!process.argv.includes('--no-readme')) writeSection(join(root, 'bench/README.md'), section);
}

main();
