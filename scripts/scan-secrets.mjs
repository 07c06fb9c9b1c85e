// The secrets scan of a test run: reads the reports the server tests' collector wrote
// (apps/server/test/helpers/secret-capture.ts: every answer and log line of every app the helpers
// built, checked against every secret the tests created) and fails when one holds a finding, or
// when there is nothing to read (the capture itself broken).
// Usage: node scripts/scan-secrets.mjs [reports/captured]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function scanReports(dir) {
  const totals = { files: 0, answers: 0, logLines: 0, secrets: 0, findings: [] };
  if (!existsSync(dir)) return totals;
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const report = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    totals.files += 1;
    totals.answers += report.answers;
    totals.logLines += report.logLines;
    totals.secrets += report.secrets;
    for (const f of report.findings) totals.findings.push({ file: report.file, ...f });
  }
  return totals;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? 'reports/captured';
  const t = scanReports(dir);
  console.log(
    `Secrets scan: ${t.files} test files, ${t.answers} answers and ${t.logLines} log lines checked against ${t.secrets} secrets.`,
  );
  for (const f of t.findings) {
    console.log(
      `  ${f.kind} in ${f.where} of ${f.route || '(no route)'} ${f.status ?? ''} (${f.file}): …${f.excerpt}…`,
    );
  }
  if (t.files === 0 || t.answers === 0) {
    console.log(`  nothing captured in ${dir}: the capture is broken`);
    process.exit(1);
  }
  process.exit(t.findings.length > 0 ? 1 : 0);
}
