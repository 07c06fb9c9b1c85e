import type { QueryClient } from '@tanstack/react-query';
import { loadAppShell, screenAt } from './screens.ts';
import { API_PATHS } from '@synchro/contracts/constants';

const ignore = () => {};

/**
 * Asks for `url` at once through a preload link: the API client's later fetch of it (same
 * credentials) takes this answer instead of waiting for its own.
 */
function preloadFetch(url: string): void {
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'fetch';
  link.href = url;
  link.crossOrigin = 'use-credentials';
  document.head.append(link);
}

/**
 * Once a session answers (before its user is parsed), starts together what the first signed-in
 * screen needs: the layout's chunk, the screen's chunk (Général from /auth, where a signed-in user
 * is sent to '/') and Général's data, beside the contracts that parse the user. Otherwise each
 * waits for the one before: four round trips in a row on a slow link (docs/web.md, Delivery).
 * A failed download is not reported here: the lazy screen that needs it shows the failure.
 */
export function preloadSignedIn(queryClient: QueryClient, path = window.location.pathname): void {
  const screen = path === '/auth' ? '/' : path;
  loadAppShell().catch(ignore);
  screenAt(screen)?.().catch(ignore);
  if (screen !== '/') return;
  // The request leaves now; the module that parses it needs the contracts chunk first.
  preloadFetch(API_PATHS.dashboard);
  import('../features/dashboard/dashboard-api.ts').then((m) => m.prefetchDashboard(queryClient), ignore);
}
