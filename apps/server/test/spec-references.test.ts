import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_ROOT } from '../src/paths.ts';
import { inPostgresPass } from './helpers/passes.ts';

// Comments point to texts a reader of the repository has (docs/architecture.md, Checks): the
// product specification and the legacy system notes are not in it, so a comment cites
// docs/spec-notes.md under one of its headings, which quotes the rule.

const REPO = join(SERVER_ROOT, '../..');
const SPEC_NOTES = 'docs/spec-notes.md';

/** Source files git tracks (and new ones it does not ignore), this test's own excepted. */
function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((path) => /\.(ts|tsx|mts|js|mjs)$/.test(path))
    .filter((path) => !path.endsWith('spec-references.test.ts'));
}

/** The text with the comment markers of continued lines removed (a citation may wrap). */
function joinedComments(text: string): string {
  return text.replace(/\n\s*(\*|\/\/)\s*/g, ' ');
}

/** What each `docs/spec-notes.md, <heading>` citation of `text` names (`Web: …` included). */
function citedHeadings(text: string): string[] {
  const joined = joinedComments(text);
  return [...joined.matchAll(/docs\/spec-notes\.md, ([^)»\n]+)/g)].map((m) => m[1]!.trim());
}

/** Does `cited` begin with one of the headings (`Web: ` for the Web part's)? */
function citesAHeading(cited: string, headings: { server: string[]; web: string[] }): boolean {
  const web = cited.startsWith('Web: ');
  const rest = web ? cited.slice('Web: '.length) : cited;
  return (web ? headings.web : headings.server).some((heading) => rest.startsWith(heading));
}

function specNotesHeadings(): { server: string[]; web: string[] } {
  const text = readFileSync(join(REPO, SPEC_NOTES), 'utf8');
  const webAt = text.indexOf('\n## Web');
  const headingsOf = (part: string) => [...part.matchAll(/^### (.+)$/gm)].map((m) => m[1]!.trim());
  return { server: headingsOf(text.slice(0, webAt)), web: headingsOf(text.slice(webAt)) };
}

describe.skipIf(inPostgresPass)('references to the specification in the code', () => {
  const files = sourceFiles();

  it('reads the repository (the check would pass on nothing otherwise)', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files).toContain('apps/server/src/app.ts');
  });

  it('no comment cites the spec documents that are outside the repository', () => {
    const outside = /\bspec ?§|product-spec(\.md)?\b|legacy-system\.md|\blegacy system §/i;
    const found = files.filter((path) => outside.test(readFileSync(join(REPO, path), 'utf8')));
    expect(found).toEqual([]);
  });

  it('every docs/spec-notes.md citation names one of its headings', () => {
    const headings = specNotesHeadings();
    expect(headings.server).toContain('Automate');
    expect(headings.web).toContain('Trace des transactions');
    const wrong: string[] = [];
    let cited = 0;
    for (const path of files) {
      for (const citation of citedHeadings(readFileSync(join(REPO, path), 'utf8'))) {
        cited += 1;
        if (!citesAHeading(citation, headings)) wrong.push(`${path}: ${citation}`);
      }
    }
    expect(cited).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  });

  it('finds a wrapped citation, and refuses a heading that does not exist', () => {
    const headings = { server: ['Import history and transaction trace'], web: ['Navigation guard'] };
    const text = '/**\n * Paging (docs/spec-notes.md, Import\n * history and transaction trace).\n */';
    expect(citedHeadings(text)).toEqual(['Import history and transaction trace']);
    expect(citesAHeading('Import history and transaction trace', headings)).toBe(true);
    expect(citesAHeading('Web: Navigation guard: « 200 ms »', headings)).toBe(true);
    expect(citesAHeading('Navigation guard', headings)).toBe(false);
    expect(citesAHeading('Web: Import history', headings)).toBe(false);
  });
});
