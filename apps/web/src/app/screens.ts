import type { ComponentType } from 'react';

// Every screen is its own chunk: the login screen loads none of the console's code. The router's
// lazy() and the preload (preload.ts) use these same importers.

export const loadLoginPage = () => import('../features/login/login-page.tsx');
/** The signed-in layout is a chunk of its own too. */
export const loadAppShell = () => import('./shell/app-shell.tsx');

type ScreenImport = () => Promise<{ default: ComponentType }>;

/** The signed-in screens by path (docs/spec-notes.md, Web: Routes and menu). */
export const SCREENS = {
  '/': () => import('../features/dashboard/dashboard-page.tsx'),
  '/database': () => import('../features/database/database-page.tsx'),
  '/external-links': () => import('../features/external-links/external-links-page.tsx'),
  '/external-calendars': () => import('../features/external-calendars/external-calendars-page.tsx'),
  '/sync-data': () => import('../features/sync-data/sync-data-page.tsx'),
  '/exclusions/family': () => import('../features/exclusions/exclusions-page.tsx'),
  '/complement': () => import('../features/complement/complement-page.tsx'),
  '/planning': () => import('../features/planning/planning-page.tsx'),
  '/terminals': () => import('../features/terminals/terminals-page.tsx'),
  '/import-history': () => import('../features/import-history/import-history-page.tsx'),
  '/transaction-logs': () => import('../features/transaction-logs/transaction-logs-page.tsx'),
  '/debug': () => import('../features/debug/debug-page.tsx'),
  '/configuration-history': () => import('../features/configuration-history/config-history-page.tsx'),
  '/audit': () => import('../features/audit/audit-page.tsx'),
} satisfies Record<string, ScreenImport>;

export const loadNotFoundPage = () => import('../features/not-found/not-found-page.tsx');

/** The importer of the screen shown at `path`, if it is one of SCREENS. */
export function screenAt(path: string): ScreenImport | undefined {
  return (SCREENS as Record<string, ScreenImport>)[path];
}
