import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The layer rule of eslint.config.js ("apps/web: import boundaries"), run through the ESLint Node
// API on generated sources placed in each folder: each forbidden direction is reported, and the
// allowed ones are not (so the rule does not pass by resolving nothing).

const thisFile = decodeURIComponent(import.meta.url.replace(/^file:\/\//, ''));
const repoRoot = thisFile.slice(0, thisFile.lastIndexOf('apps/web/src/'));
const RULE = 'import-x/no-restricted-paths';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot });
});

/** The messages of the boundary rule for `source` linted as if it were the file `path` (from apps/web/src). */
async function boundaryErrors(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: `${repoRoot}apps/web/src/${path}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === RULE).map((m) => m.message);
}

describe('web import boundaries', () => {
  it('a screen importing another screen is an error', async () => {
    const errors = await boundaryErrors(
      'features/debug/generated-cross-screen.ts',
      "import DashboardPage from '../dashboard/dashboard-page.tsx';\nexport const page = DashboardPage;\n",
    );
    expect(errors).toEqual([expect.stringContaining('A screen never imports another screen')]);
  });

  it('a screen importing app/ is an error', async () => {
    const errors = await boundaryErrors(
      'features/terminals/generated-app.ts',
      "import { MENU_ENTRIES } from '../../app/navigation.ts';\nexport const entries = MENU_ENTRIES;\n",
    );
    expect(errors).toEqual([expect.stringContaining('A screen never imports app/')]);
  });

  it('shared code importing a screen or app/ is an error', async () => {
    const errors = await boundaryErrors(
      'forms/generated-shared.ts',
      [
        "import { toSourcesForm } from '../features/database/sources-form.ts';",
        "import { MENU_ENTRIES } from '../app/navigation.ts';",
        'export const all = [toSourcesForm, MENU_ENTRIES];',
        '',
      ].join('\n'),
    );
    expect(errors).toHaveLength(2);
    expect(errors.every((e) => e.includes('imports no screen and not app/'))).toBe(true);
  });

  it('components/ and lib/ importing forms/ or state/ is an error', async () => {
    const fromLib = await boundaryErrors(
      'lib/generated-state.ts',
      "import { useAuth } from '../state/auth/auth-context.ts';\nexport const hook = useAuth;\n",
    );
    const fromUi = await boundaryErrors(
      'components/ui/generated-forms.ts',
      "import { patchAt } from '../../forms/patch-at.ts';\nexport const patch = patchAt;\n",
    );
    expect([...fromLib, ...fromUi]).toEqual([
      expect.stringContaining('components/ and lib/ import neither forms/ nor state/'),
      expect.stringContaining('components/ and lib/ import neither forms/ nor state/'),
    ]);
  });

  it('the allowed directions pass', async () => {
    const screen = await boundaryErrors(
      'features/debug/generated-allowed.ts',
      [
        "import { patchAt } from '../../forms/patch-at.ts';",
        "import { useAuth } from '../../state/auth/auth-context.ts';",
        "import { Button } from '../../components/ui/button.tsx';",
        "import { api } from '../../lib/api-client.ts';",
        "import { frenchSpacing } from './debug-format.ts';",
        'export const all = [patchAt, useAuth, Button, api, frenchSpacing];',
        '',
      ].join('\n'),
    );
    const app = await boundaryErrors(
      'app/generated-allowed.ts',
      "import DebugPage from '../features/debug/debug-page.tsx';\nexport const page = DebugPage;\n",
    );
    const forms = await boundaryErrors(
      'forms/generated-allowed.ts',
      "import { useUnsavedChanges } from '../state/unsaved-changes/use-unsaved-changes.ts';\nexport const hook = useUnsavedChanges;\n",
    );
    expect([...screen, ...app, ...forms]).toEqual([]);
  });
});
