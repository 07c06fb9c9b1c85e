import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createQueryClient } from '../../lib/query-client.ts';
import { demoUser } from '../../test/fixtures.ts';
import { json, mockApi } from '../../test/render-app.tsx';
import { queryKeys } from '../../lib/query-keys.ts';
import { useAuth } from './auth-context.ts';
import { AuthProvider } from './auth-provider.tsx';

function setup(onSession?: () => void) {
  const queryClient = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <AuthProvider onSession={onSession}>{children}</AuthProvider>
    </QueryClientProvider>
  );
  return { queryClient, ...renderHook(() => useAuth(), { wrapper }) };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('AuthProvider', () => {
  it('a 401 on the user query means signed out', async () => {
    mockApi({ 'GET /api/user': () => json({ message: 'Non authentifié' }, 401) });
    const { result } = setup();
    expect(result.current.isLoading).toBe(true);
    expect(result.current.user).toBeUndefined();
    await waitFor(() => expect(result.current.user).toBeNull());
  });

  it('login stores the user in the cache; logout clears it', async () => {
    mockApi({
      'GET /api/user': () => json({ message: 'Non authentifié' }, 401),
      'POST /api/login': () => json(demoUser),
      'POST /api/logout': () => new Response(null, { status: 204 }),
    });
    const { result, queryClient } = setup();
    await waitFor(() => expect(result.current.user).toBeNull());
    await act(() => result.current.login({ username: 'DEMOA001', password: 'x' }));
    expect(queryClient.getQueryData(queryKeys.user)).toEqual(demoUser);
    await waitFor(() => expect(result.current.user).toEqual(demoUser));
    await act(() => result.current.logout());
    await waitFor(() => expect(result.current.user).toBeNull());
    expect(queryClient.getQueryData(queryKeys.user)).toBeNull();
  });

  it('onSession runs when an answer carries a user, before it is parsed; never for a visitor', async () => {
    const onSession = vi.fn();
    mockApi({
      'GET /api/user': () => json({ message: 'Non authentifié' }, 401),
      'POST /api/login': () => json(demoUser),
    });
    const { result } = setup(onSession);
    await waitFor(() => expect(result.current.user).toBeNull());
    expect(onSession).not.toHaveBeenCalled();
    await act(() => result.current.login({ username: 'DEMOA001', password: 'x' }));
    expect(onSession).toHaveBeenCalledTimes(1);

    // A session found by the user query: called once, and the user is known only after.
    onSession.mockClear();
    let userWhenCalled: unknown = 'pas appelé';
    mockApi({ 'GET /api/user': () => json(demoUser) });
    const second = setup(() => {
      onSession();
      userWhenCalled = second.result.current.user;
    });
    await waitFor(() => expect(second.result.current.user).toEqual(demoUser));
    expect(onSession).toHaveBeenCalledTimes(1);
    expect(userWhenCalled).toBeUndefined();
  });

  it('a failed refresh logs the spec message and gives null', async () => {
    mockApi({ 'GET /api/user': () => json(demoUser) });
    const { result } = setup();
    await waitFor(() => expect(result.current.user).toEqual(demoUser));
    mockApi({ 'GET /api/user': () => json({ message: 'Erreur interne' }, 500) });
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    let refreshed: unknown = 'pas encore';
    await act(async () => {
      refreshed = await result.current.refreshUser();
    });
    expect(refreshed).toBeNull();
    expect(consoleError).toHaveBeenCalledWith(
      'Erreur lors du rafraîchissement des données utilisateur',
      expect.objectContaining({ message: '500: Erreur interne' }),
    );
  });
});
