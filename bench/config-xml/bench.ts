/**
 * The config-xml benchmark's code path, shared by the CLI (run.ts) and the smoke test that runs it
 * on the fixture inside `npm test` (bench.test.ts), so that it cannot rot silently.
 * Times on each document: a bare saxes pass (the floor), `xmllint --stream`, parseConfig, a full
 * read of every view, each section edit (on the document parsed once beforehand: the edit's own
 * cost; a save that starts from the stored text adds the parseConfig row), diagnoseConfig and
 * repairConfig; then checks the goals of issue 18 on the 5 MB (and 50 MB) documents.
 */
import { spawnSync } from 'node:child_process';
import { SaxesParser } from 'saxes';
import * as engine from '@synchro/config-xml';
import { sectionEdits } from './edits.ts';
import { formatMs, time } from './measure.ts';
import { pairedRatio } from './paired.ts';

export interface TBenchCase {
  label: string;
  /** File holding `text` (for xmllint), undefined to skip xmllint. */
  path?: string;
  text: string;
  runs: number;
}

export interface TBenchRow {
  name: string;
  /** Median ms per case (null: not measured). */
  values: (number | null)[];
}

export interface TBenchResult {
  cases: TBenchCase[];
  rows: TBenchRow[];
  table: string[];
  goals: string[];
}

export function saxesPass(text: string): void {
  const parser = new SaxesParser();
  parser.write(text).close();
}

export function fullRead(text: string): void {
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

export function sizeLabel(text: string): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  // Decimal units, as in the case labels.
  return bytes < 1_000_000 ? `${Math.round(bytes / 1000)} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`;
}

type TMeasure = (c: TBenchCase) => number | null;

/**
 * Runs every row on every case. `fixture` gives the edits' payloads; `log` receives one line per
 * measure. The goals are judged on the cases labelled '5 MB' and '50 MB' when present.
 */
export function runBench(
  fixture: string,
  cases: TBenchCase[],
  log: (line: string) => void = () => {},
): TBenchResult {
  const withXmllint = cases.some((c) => c.path !== undefined) && xmllintAvailable();
  const edits = sectionEdits(fixture);
  /** CPU time of each edit (label|case): on a shared machine, what the edit costs without the wait. */
  const editCpu = new Map<string, number>();
  const measures: [string, TMeasure][] = [
    ['bare saxes pass (floor)', (c) => time(c.runs, () => saxesPass(c.text)).medianMs],
    [
      '`xmllint --stream --noout` (process, incl. start-up)',
      (c) =>
        withXmllint && c.path !== undefined ? time(c.runs, () => xmllintStream(c.path ?? '')).medianMs : null,
    ],
    ['parseConfig (top-level scan)', (c) => time(c.runs, () => engine.parseConfig(c.text)).medianMs],
    ['full read: parseConfig + every reader', (c) => time(c.runs, () => fullRead(c.text)).medianMs],
    ...edits.map((edit): [string, TMeasure] => [
      `section edit: ${edit.label}`,
      (c) => {
        const doc = engine.parseConfig(c.text);
        const timing = time(c.runs, () => edit.run(doc));
        editCpu.set(`${edit.label}|${c.label}`, timing.cpuMedianMs);
        return timing.medianMs;
      },
    ]),
    ['diagnoseConfig', (c) => time(c.runs, () => engine.diagnoseConfig(c.text)).medianMs],
    [
      'repairConfig (fixes the `&amp;apos;` artefacts)',
      (c) => time(c.runs, () => engine.repairConfig(c.text)).medianMs,
    ],
  ];
  const rows = measures.map(([name, measure]) => {
    const values = cases.map((c) => {
      const value = measure(c);
      log(`${name} / ${c.label}: ${formatMs(value)} ms`);
      return value;
    });
    return { name, values };
  });

  const header = `| operation (median ms) | ${cases.map((c) => `${c.label} (${sizeLabel(c.text)}, ${c.runs} runs)`).join(' | ')} |`;
  const table = [header, `|---|${cases.map(() => '---:').join('|')}|`];
  for (const { name, values } of rows) table.push(`| ${name} | ${values.map(formatMs).join(' | ')} |`);

  const goals: string[] = [];
  for (const [label, editBudget] of [
    ['5 MB', 10],
    ['50 MB', 100],
  ] as const) {
    const at = cases.findIndex((c) => c.label === label);
    if (at === -1) continue;
    const value = (prefix: string): number | null =>
      rows.find((r) => r.name.startsWith(prefix))?.values[at] ?? null;
    // The ratios are measured in pairs (paired.ts), each against its floor, in this same run.
    const c = cases[at] as TBenchCase;
    const pairs = (measured: () => unknown, floor: () => unknown): number => {
      const r = pairedRatio(c.runs, measured, floor);
      log(`paired ratio / ${label}: ${r.toFixed(2)}`);
      return r;
    };
    const readRatio = pairs(
      () => fullRead(c.text),
      () => saxesPass(c.text),
    );
    const diagnoseRatio = pairs(
      () => engine.diagnoseConfig(c.text),
      () => fullRead(c.text),
    );
    const repairRatio = pairs(
      () => engine.repairConfig(c.text),
      () => fullRead(c.text),
    );
    const editTimes = rows.filter((r) => r.name.startsWith('section edit')).map((r) => r.values[at] ?? null);
    const slowestEdit = editTimes.some((v) => v === null) ? null : Math.max(...(editTimes as number[]));
    const slowestEditCpu = Math.max(...edits.map((e) => editCpu.get(`${e.label}|${label}`) ?? 0));
    const rowRatio = (a: string, b: string): string => {
      const x = value(a);
      const y = value(b);
      return x !== null && y !== null ? ` (medians of the rows: ${(x / y).toFixed(2)} ×)` : '';
    };
    const verdict = (r: number | null, goal: number, unit = '×'): string =>
      r === null
        ? 'not measured'
        : `${unit === '×' ? r.toFixed(2) : formatMs(r)} ${unit} → ${r <= goal ? 'met' : 'NOT met'}`;
    goals.push(
      `- ${label}: full read ≤ 1.0× the bare saxes pass (paired): ${verdict(readRatio, 1)}${rowRatio('full read', 'bare saxes')}.`,
      `- ${label}: every section edit ≤ ${editBudget} ms (on the parsed document): slowest ${verdict(slowestEdit, editBudget, 'ms')} (CPU time of the slowest: ${formatMs(slowestEditCpu)} ms).`,
      `- ${label}: diagnostic ≤ 3× the full read (paired): ${verdict(diagnoseRatio, 3)}${rowRatio('diagnoseConfig', 'full read')}.`,
      `- ${label}: repair ≤ 5× the full read (paired): ${verdict(repairRatio, 5)}${rowRatio('repairConfig', 'full read')}.`,
    );
  }
  if (!withXmllint)
    goals.push(
      '- `xmllint` not run (not installed, Debian package libxml2-utils, or no file): its row is n/a.',
    );
  return { cases, rows, table, goals };
}
