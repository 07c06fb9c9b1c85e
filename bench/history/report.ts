import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CaseResult {
  list: 'history' | 'trace';
  label: string;
  apiP50: number;
  apiP95: number;
  rawP50: number;
  rawP95: number;
  rows: number;
  sameRows: boolean;
}

export interface ExportResult {
  path: string;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  megabytes: number;
  rssBefore: number;
  rssPeak: number;
  /** The highest reading in each quarter of the download's time. */
  rssByQuarter?: number[];
}

/** Général and Terminaux read at this scale (the API; the raw SQL of the counters' statements). */
export interface GlanceResult {
  label: string;
  apiP50: number;
  apiP95: number;
  rawP50: number | null;
  rawP95: number | null;
}

export interface DbResult {
  db: 'embedded' | 'postgres';
  machine: string;
  date: string;
  load: string;
  runs: number;
  seedSeconds: number | null;
  records: number;
  transactions: number;
  installations: number;
  terms: { historyRare: string; traceRare: string; common: string };
  cases: CaseResult[];
  exports: ExportResult[];
  /** Absent from the results of runs before it was measured. */
  glance?: GlanceResult[];
}

export interface IngestRow {
  db: 'embedded' | 'postgres';
  batch: string;
  size: number;
  beforeMedian: number;
  beforeMean: number;
  afterMedian: number;
  afterMean: number;
}

export interface IngestResult {
  machine: string;
  date: string;
  load: string;
  prefill: number;
  batches: number;
  rows: IngestRow[];
}

const START = '<!-- bench/history: start -->';
const END = '<!-- bench/history: end -->';

const ms = (v: number) =>
  Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)) : 'n/a';
const nf = new Intl.NumberFormat('fr-FR');

function goals(r: DbResult): string[] {
  const find = (list: string, start: string) =>
    r.cases.find((c) => c.list === list && c.label.startsWith(start));
  const out: string[] = [];
  for (const list of ['history', 'trace'] as const) {
    const first = find(list, 'first page');
    const last = find(list, 'last page');
    const quick = ['first page', 'errors only', 'one day']
      .map((l) => find(list, l))
      .filter((c) => c !== undefined);
    const searches = r.cases.filter((c) => c.list === list && c.label.startsWith('search'));
    const worstQuick = Math.max(...quick.map((c) => c.apiP95));
    const worstSearch = Math.max(...searches.map((c) => c.apiP95));
    const ratio = first && last ? last.apiP95 / first.apiP95 : NaN;
    out.push(
      `- ${list}: first page, errors only, one day p95 ≤ 20 ms: worst ${ms(worstQuick)} ms → ${worstQuick <= 20 ? 'met' : 'NOT met'}; ` +
        `search p95 ≤ 50 ms: worst ${ms(worstSearch)} ms → ${worstSearch <= 50 ? 'met' : 'NOT met'}; ` +
        `last page ≤ 2× first (p95): ${ratio.toFixed(2)}× → ${ratio <= 2 ? 'met' : 'NOT met'}.`,
    );
  }
  for (const e of r.exports) {
    const growth = e.rssPeak - e.rssBefore;
    const [, second = 0, , last = 0] = e.rssByQuarter ?? [];
    // Flat: once the first batches are in flight, memory no longer grows with the rows sent.
    const flat = e.rssByQuarter
      ? `flat (highest reading of the last quarter of the download ≤ 1.1 × the second's: ${Math.round(last)} vs ${Math.round(second)} MB) → ${last <= second * 1.1 ? 'met' : 'NOT met'}`
      : 'readings by quarter not taken in that run';
    out.push(
      `- CSV ${e.path}: ${nf.format(Math.round(e.rowsPerSecond))} rows/s (≥ 50 000: ${e.rowsPerSecond >= 50_000 ? 'met' : 'NOT met'}), ` +
        `server memory ${Math.round(e.rssBefore)} → peak ${Math.round(e.rssPeak)} MB (+${Math.round(growth)} MB for ${nf.format(e.rows)} rows); ${flat}.`,
    );
  }
  return out;
}

function glanceTable(glance: readonly GlanceResult[]): string[] {
  if (glance.length === 0) return [];
  const worst = Math.max(...glance.slice(0, 2).map((g) => g.apiP95));
  return [
    '| Général and Terminaux | API p50 ms | API p95 ms | raw SQL p50 ms | raw SQL p95 ms |',
    '|---|---:|---:|---:|---:|',
    ...glance.map(
      (g) =>
        `| ${g.label} | ${ms(g.apiP50)} | ${ms(g.apiP95)} | ${g.rawP50 === null ? '—' : ms(g.rawP50)} | ${g.rawP95 === null ? '—' : ms(g.rawP95)} |`,
    ),
    '',
    `- Général and Terminaux p95 ≤ 20 ms (issue 17's bar, at this scale): worst ${ms(worst)} ms → ${worst <= 20 ? 'met' : 'NOT met'}.`,
  ];
}

function section(r: DbResult): string {
  const title = r.db === 'embedded' ? 'Embedded database (PGlite)' : 'PostgreSQL 15';
  const lines = [
    `### ${title}`,
    '',
    `${r.date} UTC, ${r.machine}, load average ${r.load} (the machine is shared: figures move with it).`,
    `Data: ${nf.format(r.records)} records and ${nf.format(r.transactions)} transactions in the measured installation, ` +
      `${r.installations} installations in all (\`seed-history\`${r.seedSeconds === null ? ', seeded in an earlier run' : `, seeded in ${Math.round(r.seedSeconds)} s`}). ` +
      `${r.runs} runs per case after 3 warm-up runs, one request at a time. Rare terms: « ${r.terms.historyRare} » (history), « ${r.terms.traceRare} » (trace); common: « ${r.terms.common} ».`,
    '',
    '| list | case | API p50 ms | API p95 ms | raw SQL p50 ms | raw SQL p95 ms | rows | same rows |',
    '|---|---|---:|---:|---:|---:|---:|---|',
    ...r.cases.map(
      (c) =>
        `| ${c.list} | ${c.label} | ${ms(c.apiP50)} | ${ms(c.apiP95)} | ${ms(c.rawP50)} | ${ms(c.rawP95)} | ${c.rows} | ${c.sameRows ? 'yes' : 'NO'} |`,
    ),
    '',
    '| CSV export | rows | seconds | rows/s | MB | server RSS before → peak (MB) | highest RSS by quarter of the download (MB) |',
    '|---|---:|---:|---:|---:|---|---|',
    ...r.exports.map(
      (e) =>
        `| ${e.path} | ${nf.format(e.rows)} | ${e.seconds.toFixed(1)} | ${nf.format(Math.round(e.rowsPerSecond))} | ${Math.round(e.megabytes)} | ${Math.round(e.rssBefore)} → ${Math.round(e.rssPeak)} | ${e.rssByQuarter?.map((v) => Math.round(v)).join(' · ') ?? '—'} |`,
    ),
    '',
    ...glanceTable(r.glance ?? []),
    ...goals(r),
    '',
  ];
  return lines.join('\n');
}

function ingestSection(r: IngestResult): string {
  return [
    '### Ingestion cost of migration 004',
    '',
    `\`npx tsx bench/history/ingest-cost.ts\`: ${r.date} UTC, ${r.machine}, load average ${r.load}. The connector API's own`,
    `multi-row statements, ${r.batches} batches of each kind into a database migrated up to 003 and into one migrated up`,
    `to 004 (folded search columns, trigram and covering indexes, day-counter triggers), both holding ${nf.format(r.prefill)}`,
    'rows of each kind already; PGlite in memory, PostgreSQL in two schemas.',
    '',
    '| database | batch | up to 003: median / mean ms | with 004: median / mean ms | added (mean) | added per row |',
    '|---|---|---:|---:|---:|---:|',
    ...r.rows.map(
      (x) =>
        `| ${x.db} | ${x.batch} | ${ms(x.beforeMedian)} / ${ms(x.beforeMean)} | ${ms(x.afterMedian)} / ${ms(x.afterMean)} | ` +
        `${x.afterMean >= x.beforeMean ? '+' : ''}${Math.round(((x.afterMean - x.beforeMean) / x.beforeMean) * 100)} % | ` +
        `${Math.round(((x.afterMean - x.beforeMean) / x.size) * 1000)} µs |`,
    ),
    '',
  ].join('\n');
}

/** Rewrites this bench's section of bench/README.md from the saved results of each database. */
export function writeReadme(dataDir: string, readmePath: string): void {
  const results = (['embedded', 'postgres'] as const)
    .map((db) => join(dataDir, `results-${db}.json`))
    .filter((f) => existsSync(f))
    .map((f) => JSON.parse(readFileSync(f, 'utf8')) as DbResult);
  const body = [
    START,
    '## Import history and transaction trace',
    '',
    'Run `npm run build -w @synchro/server && npx tsx bench/history/run.ts` (data kept in bench/history/data/, not committed).',
    '« API » is the whole request through the built server (session check, display zone, one repeatable-read',
    'transaction with the total and the page, JSON); « raw SQL » the same statements from the bench process, in the',
    'same run (the copy in bench/history/cases.ts; « same rows » checks both gave the same rows). Totals are exact',
    '(day counters, or an index count for one day); a search is counted up to 1 000 (« plus de 1 000 »).',
    'Indexes and why: docs/history.md. Ingestion cost of the triggers and indexes: `npx tsx bench/history/ingest-cost.ts`, below.',
    'The goals (issue « Import history and transaction trace ») are set on PostgreSQL; the embedded database gets the same',
    'checks for comparison (it runs in the server’s own thread, one query at a time).',
    '',
    ...results.map(section),
    ...(existsSync(join(dataDir, 'ingest-cost.json'))
      ? [ingestSection(JSON.parse(readFileSync(join(dataDir, 'ingest-cost.json'), 'utf8')) as IngestResult)]
      : []),
    END,
  ].join('\n');
  const readme = readFileSync(readmePath, 'utf8');
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  const next =
    start >= 0 && end > start
      ? `${readme.slice(0, start)}${body}${readme.slice(end + END.length)}`
      : `${readme.trimEnd()}\n\n${body}\n`;
  writeFileSync(readmePath, next);
}
