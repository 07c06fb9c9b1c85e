/**
 * config-xml benchmark: npx tsx bench/config-xml/run.ts [--runs N]
 * Generates (not committed) 5 MB and 50 MB documents from the fixture, then times on the fixture
 * and on both: a bare saxes pass, `xmllint --stream`, parseConfig, a full read of every view, a
 * section edit, diagnoseConfig and repairConfig. Prints a markdown table and writes it to
 * bench/README.md under "## config-xml".
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SaxesParser } from 'saxes';
import * as engine from '@synchro/config-xml';
import { sectionEdits } from './edits.ts';
import { generateDocument } from './generate.ts';
import { describeMachine } from './machine.ts';
import { formatMs, time } from './measure.ts';
import { writeSection } from './readme.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const fixturePath = join(root, 'packages/config-xml/test/fixtures/connexion-ebp-gescom.xml');
const generatedDir = join(here, '.generated');
const runsArg = process.argv.indexOf('--runs');
const baseRuns = runsArg === -1 ? 7 : Number(process.argv[runsArg + 1]);

interface TCase {
  label: string;
  path: string;
  text: string;
  runs: number;
}

function saxesPass(text: string): void {
  const parser = new SaxesParser();
  parser.write(text).close();
}

function fullRead(text: string): void {
  const doc = engine.parseConfig(text);
  engine.readInfo(doc);
  engine.readLastSync(doc);
  engine.readSources(doc);
  engine.readExternalLinks(doc);
  engine.readExternalCalendars(doc);
  engine.readDataLists(doc);
  engine.readGlobalAuthorizations(doc);
  engine.readSyncData(doc);
  engine.readExclusions(doc);
  engine.readComplement(doc);
  engine.readPlanifications(doc);
  engine.countPlannings(doc);
  engine.readTerminals(doc);
}

function xmllintAvailable(): boolean {
  return spawnSync('xmllint', ['--version']).status === 0;
}

function xmllintStream(path: string): void {
  const result = spawnSync('xmllint', ['--stream', '--noout', path]);
  if (result.status !== 0) throw new Error(`xmllint failed: ${result.stderr.toString().slice(0, 200)}`);
}

function sizeLabel(text: string): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  // Decimal units, as in the case labels.
  return bytes < 1_000_000 ? `${Math.round(bytes / 1000)} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`;
}

function main(): void {
  const fixture = readFileSync(fixturePath, 'utf8');
  mkdirSync(generatedDir, { recursive: true });
  const cases: TCase[] = [{ label: 'fixture', path: fixturePath, text: fixture, runs: baseRuns * 3 }];
  for (const [label, bytes, runs] of [
    ['5 MB', 5_000_000, baseRuns],
    ['50 MB', 50_000_000, Math.max(3, Math.ceil(baseRuns / 2))],
  ] as const) {
    const text = generateDocument(fixture, bytes);
    const path = join(generatedDir, `connexion-${label.replace(' ', '')}.xml`);
    writeFileSync(path, text);
    cases.push({ label, path, text, runs });
  }
  const withXmllint = xmllintAvailable();
  const edits = sectionEdits(fixture);
  const rows: [string, (c: TCase) => number | null][] = [
    ['bare saxes pass (floor)', (c) => time(c.runs, () => saxesPass(c.text)).medianMs],
    [
      '`xmllint --stream --noout` (process, incl. start-up)',
      (c) => (withXmllint ? time(c.runs, () => xmllintStream(c.path)).medianMs : null),
    ],
    ['parseConfig (top-level scan)', (c) => time(c.runs, () => engine.parseConfig(c.text)).medianMs],
    ['full read: parseConfig + every reader', (c) => time(c.runs, () => fullRead(c.text)).medianMs],
    ...edits.map(
      (edit) =>
        [`section edit: ${edit.label}`, (c: TCase) => time(c.runs, () => edit.run(c.text)).medianMs] as [
          string,
          (c: TCase) => number | null,
        ],
    ),
    ['diagnoseConfig', (c) => time(c.runs, () => engine.diagnoseConfig(c.text)).medianMs],
    [
      'repairConfig (fixes the `&amp;apos;` artefacts)',
      (c) => time(c.runs, () => engine.repairConfig(c.text)).medianMs,
    ],
  ];
  const results = rows.map(([name, measure]) => {
    const values = cases.map((c) => {
      const value = measure(c);
      process.stderr.write(`${name} / ${c.label}: ${formatMs(value)} ms\n`);
      return value;
    });
    return { name, values };
  });

  const header = `| operation (median ms) | ${cases.map((c) => `${c.label} (${sizeLabel(c.text)}, ${c.runs} runs)`).join(' | ')} |`;
  const lines = [header, `|---|${cases.map(() => '---:').join('|')}|`];
  for (const { name, values } of results) lines.push(`| ${name} | ${values.map(formatMs).join(' | ')} |`);

  const at5 = (name: string): number | null =>
    results.find((r) => r.name.startsWith(name))?.values[1] ?? null;
  const floor = at5('bare saxes');
  const read = at5('full read');
  const editTimes = results.filter((r) => r.name.startsWith('section edit')).map((r) => r.values[1] ?? null);
  const editMs = editTimes.some((v) => v === null) ? null : Math.max(...(editTimes as number[]));
  const ratio = floor !== null && read !== null ? read / floor : null;
  const goals = [
    `- Full read of 5 MB within 1.5× the bare saxes pass: ${ratio === null ? 'not measured' : `${ratio.toFixed(2)}× → ${ratio <= 1.5 ? 'met' : 'NOT met'}`}.`,
    `- Section edit on 5 MB ≤ 100 ms: ${editMs === null ? 'not measured' : `slowest edit ${formatMs(editMs)} ms → ${editMs <= 100 ? 'met' : 'NOT met'}`}.`,
  ];
  if (!withXmllint) goals.push('- `xmllint` not installed (Debian package libxml2-utils): its row is n/a.');

  const section = [
    '## config-xml',
    '',
    `Run \`npx tsx bench/config-xml/run.ts\` (documents generated under bench/config-xml/.generated/, not committed).`,
    `Machine: ${describeMachine()}. Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    'Medians of N runs after a warm-up, all in one process; on a shared machine they move by up to ~2× between runs.',
    '',
    ...lines,
    '',
    ...goals,
    '',
  ].join('\n');
  console.log(section);
  writeSection(join(root, 'bench/README.md'), section);
}

main();
