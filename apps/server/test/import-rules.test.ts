import { ESLint } from 'eslint';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SERVER_ROOT } from '../src/paths.ts';
import { inPostgresPass } from './helpers/passes.ts';

// The server's layer rule and the repository's cycle rule of eslint.config.js, run through the
// ESLint Node API as `npm run lint` runs them: a real source file of the repository, linted under
// its own path with one import added. Without the addition the file is clean, so each rule is
// seen to fire on the violation and only on it.

const REPO = join(SERVER_ROOT, '../..');
const LAYERS = 'import-x/no-restricted-paths';
const CYCLE = 'import-x/no-cycle';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: REPO });
});

/** Messages of `rule` for the file at `path` (from the repository root) with `added` before it. */
async function errors(rule: string, path: string, added = ''): Promise<string[]> {
  const file = join(REPO, path);
  const [result] = await eslint.lintText(added + readFileSync(file, 'utf8'), { filePath: file });
  return (result?.messages ?? []).filter((m) => m.ruleId === rule).map((m) => m.message);
}

describe.skipIf(inPostgresPass)('server layers (import-x/no-restricted-paths)', () => {
  it('a feature importing another feature is an error', async () => {
    const path = 'apps/server/src/features/debug/service.ts';
    expect(await errors(LAYERS, path)).toEqual([]);
    const added =
      "import { saveSection } from '../configuration/service.ts';\nexport const probe = saveSection;\n";
    expect(await errors(LAYERS, path, added)).toEqual([
      expect.stringContaining('A feature never imports another feature'),
    ]);
  });

  it('domain/ importing a feature, or http/ beyond AppError, is an error', async () => {
    const path = 'apps/server/src/domain/config-cache.ts';
    expect(await errors(LAYERS, path)).toEqual([]);
    const added = [
      "import { buildDashboard } from '../features/dashboard/service.ts';",
      "import { requireSession } from '../http/session-guard.ts';",
      "import { AppError } from '../http/errors.ts';",
      'export const probe = [buildDashboard, requireSession, AppError];',
      '',
    ].join('\n');
    expect(await errors(LAYERS, path, added)).toEqual([
      expect.stringContaining('domain/, db/ and offload/ import no feature'),
      expect.stringContaining('use AppError (http/errors.ts) and nothing else of http/'),
    ]);
  });

  it('offload/ (the worker pool) importing domain/ or a feature, or anyone importing the worker entry, is an error', async () => {
    const path = 'apps/server/src/offload/pool.ts';
    expect(await errors(LAYERS, path)).toEqual([]);
    const added = [
      "import { readBlob } from '../domain/blobs.ts';",
      "import { checkRecordsTask } from '../features/connector/checked-batches.ts';",
      "import runTask from '../offload-worker.ts';",
      'export const probe = [readBlob, checkRecordsTask, runTask];',
      '',
    ].join('\n');
    expect(await errors(LAYERS, path, added)).toEqual([
      expect.stringContaining('offload/ (the worker pool) imports no layer but AppError'),
      expect.stringContaining('domain/, db/ and offload/ import no feature'),
      expect.stringContaining('Nothing imports the composition (app.ts, main.ts, offload-worker.ts)'),
    ]);
  });

  it('a routes.ts running SQL itself is an error', async () => {
    const path = 'apps/server/src/features/debug/routes.ts';
    expect(await errors('no-restricted-syntax', path)).toEqual([]);
    const added = [
      "import type { AppContext } from '../../context.ts';",
      "export const probe = (ctx: AppContext) => ctx.db.query('UPDATE installations SET premium = true');",
      '',
    ].join('\n');
    expect(await errors('no-restricted-syntax', path, added)).toEqual([
      "routes.ts runs no SQL: call the area's service with ctx.db.",
    ]);
  });

  it('context.ts importing a feature or http/ is an error', async () => {
    const path = 'apps/server/src/context.ts';
    expect(await errors(LAYERS, path)).toEqual([]);
    const added = [
      "import { buildDashboard } from './features/dashboard/service.ts';",
      "import { requireSession } from './http/session-guard.ts';",
      'export const probe = [buildDashboard, requireSession];',
      '',
    ].join('\n');
    expect(await errors(LAYERS, path, added)).toEqual([
      expect.stringContaining('context.ts (what the routes receive) imports no feature'),
      expect.stringContaining('context.ts (what the routes receive) imports no feature'),
    ]);
  });

  it('http/ importing a feature, and db/ importing domain/, are errors', async () => {
    const http = 'apps/server/src/http/session-guard.ts';
    const db = 'apps/server/src/db/migrate.ts';
    expect(await errors(LAYERS, http)).toEqual([]);
    expect(await errors(LAYERS, db)).toEqual([]);
    expect(
      await errors(
        LAYERS,
        http,
        "import { login } from '../features/auth/service.ts';\nexport const probe = login;\n",
      ),
    ).toEqual([expect.stringContaining('import no feature')]);
    expect(
      await errors(
        LAYERS,
        db,
        "import { recordAudit } from '../domain/audit.ts';\nexport const probe = recordAudit;\n",
      ),
    ).toEqual([expect.stringContaining('db/ imports nothing above it')]);
  });
});

describe.skipIf(inPostgresPass)('package directions (import-x/no-restricted-paths)', () => {
  it('a package importing apps/*, or the server importing the web app, is an error', async () => {
    const pkg = 'packages/config-xml/src/codec.ts';
    const server = 'apps/server/src/paths.ts';
    expect(await errors(LAYERS, pkg)).toEqual([]);
    expect(await errors(LAYERS, server)).toEqual([]);
    const fromPkg =
      "import { AppError } from '../../../apps/server/src/http/errors.ts';\nexport const probe = AppError;\n";
    expect(await errors(LAYERS, pkg, fromPkg)).toEqual([expect.stringContaining('Nothing imports apps/*')]);
    const fromServer = "import { api } from '../../web/src/lib/api-client.ts';\nexport const probe = api;\n";
    expect(await errors(LAYERS, server, fromServer)).toEqual([
      expect.stringContaining('The server imports only its own code and packages/'),
    ]);
  });
});

describe.skipIf(inPostgresPass)('no import cycle (import-x/no-cycle)', () => {
  it('the sessions ↔ installations cycle, put back, is an error', async () => {
    const path = 'apps/server/src/domain/installations.ts';
    expect(await errors(CYCLE, path)).toEqual([]);
    // domain/sessions.ts imports installations.ts: installations.ts may not import it back.
    const added =
      "import { deleteInstallationSessions } from './sessions.ts';\nexport const probe = deleteInstallationSessions;\n";
    expect(await errors(CYCLE, path, added)).toEqual([expect.stringContaining('Dependency cycle')]);
  });

  it('a cycle between two workspace packages is an error', async () => {
    // @synchro/config-xml imports @synchro/contracts.
    const path = 'packages/contracts/src/auth.ts';
    expect(await errors(CYCLE, path)).toEqual([]);
    const added = "import { parseConfig } from '@synchro/config-xml';\nexport const probe = parseConfig;\n";
    expect(await errors(CYCLE, path, added)).toEqual([expect.stringContaining('Dependency cycle')]);
  });
});
