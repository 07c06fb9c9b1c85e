import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_ROOT } from '../src/paths.ts';
import { inPostgresPass } from './helpers/passes.ts';

// One word for an email in the console's French (docs/web.md, Texts and accessibility): « email », the product
// spec's own (« Notification par email »). « Envoyer un rapport de synchro par mail » is a spec
// text, kept as it is. The code's French texts never say « courriel » or « e-mail ».

const REPO = join(SERVER_ROOT, '../..');

/** The source files of the server, the web app and the shared packages (tests included). */
function sourceFiles(): string[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', 'apps', 'packages', 'e2e'],
    { cwd: REPO, encoding: 'utf8' },
  );
  return listed
    .split('\n')
    .filter((path) => /\.(ts|tsx)$/.test(path))
    .filter((path) => !path.endsWith('email-wording.test.ts'));
}

describe.skipIf(inPostgresPass)('the word for an email', () => {
  const files = sourceFiles();

  it('reads the sources (the check would pass on nothing otherwise)', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files).toContain('apps/web/src/features/complement/complement-page.tsx');
  });

  it('« email » everywhere: no « courriel », no « e-mail »', () => {
    const found = files.flatMap((path) =>
      readFileSync(join(REPO, path), 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          /courriel|(?<![\w-])e-mail/i.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });

  it('the spec texts are kept exactly', () => {
    const page = readFileSync(join(REPO, 'apps/web/src/features/complement/complement-page.tsx'), 'utf8');
    expect(page).toContain('"Notification par email"');
    expect(page).toContain('"Envoyer un rapport de synchro par mail"');
  });
});
