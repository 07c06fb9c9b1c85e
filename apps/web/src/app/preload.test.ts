import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query-client.ts';
import { queryKeys } from '../lib/query-keys.ts';
import { json, mockApi } from '../test/render-app.tsx';
import { demoDashboard } from '../test/fixtures.ts';

const loaded: string[] = [];
// The chunks themselves are not loaded here: only which importers the preload calls.
vi.mock('./screens.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  loadAppShell: () => {
    loaded.push('shell');
    return Promise.resolve({});
  },
  screenAt: (path: string) =>
    ['/', '/planning'].includes(path)
      ? () => {
          loaded.push(path);
          return Promise.resolve({});
        }
      : undefined,
}));

const { preloadSignedIn } = await import('./preload.ts');

beforeEach(() => {
  loaded.length = 0;
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.head.querySelectorAll('link[rel="preload"]').forEach((l) => l.remove());
});

const preloads = () =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"]')].map(
    (l) => `${l.as} ${new URL(l.href).pathname} ${l.crossOrigin}`,
  );

describe('preloadSignedIn', () => {
  it('from /auth: the layout, Général and its data, all at once', async () => {
    const fetchMock = mockApi({ 'GET /api/dashboard': () => json(demoDashboard) });
    const queryClient = createQueryClient();
    preloadSignedIn(queryClient, '/auth');
    expect(loaded).toEqual(['shell', '/']);
    expect(preloads()).toEqual(['fetch /api/dashboard use-credentials']);
    // The dashboard module (and the contracts) load on the first call: seconds on a busy machine.
    await vi.waitFor(() => expect(queryClient.getQueryState(queryKeys.dashboard)?.status).toBe('success'), {
      timeout: 15_000,
    });
    expect(queryClient.getQueryData(queryKeys.dashboard)).toEqual(demoDashboard);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('elsewhere: the layout and that screen, no dashboard data', async () => {
    const fetchMock = mockApi({});
    preloadSignedIn(createQueryClient(), '/planning');
    expect(loaded).toEqual(['shell', '/planning']);
    preloadSignedIn(createQueryClient(), '/nulle-part');
    expect(loaded).toEqual(['shell', '/planning', 'shell']);
    await new Promise((r) => setTimeout(r, 20));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(preloads()).toEqual([]);
  });
});
