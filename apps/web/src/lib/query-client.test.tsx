import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import {
  QueryClientProvider,
  focusManager,
  onlineManager,
  useQuery,
  type QueryClient,
} from '@tanstack/react-query';
import { createQueryClient } from './query-client.ts';

afterEach(() => {
  vi.useRealTimers();
  focusManager.setFocused(undefined);
  onlineManager.setOnline(true);
});

/** A query function answering « réponse 1 », « réponse 2 »… (or failing), counting its calls. */
function counter(fail = false) {
  let n = 0;
  return vi.fn(async () => {
    n += 1;
    if (fail) throw new Error(`échec ${n}`);
    return `réponse ${n}`;
  });
}

function Reader({ queryFn }: { queryFn: () => Promise<string> }) {
  const query = useQuery({ queryKey: ['lecture'], queryFn });
  return <p>{query.isError ? query.error.message : (query.data ?? 'en attente')}</p>;
}

function show(queryFn: () => Promise<string>, client: QueryClient = createQueryClient()) {
  const view = render(
    <QueryClientProvider client={client}>
      <Reader queryFn={queryFn} />
    </QueryClientProvider>,
  );
  return { ...view, client };
}

describe('query client (no retries, no polling, refetch on focus, mount and reconnect, always stale)', () => {
  it('has these defaults', () => {
    const queries = createQueryClient().getDefaultOptions().queries;
    expect(queries).toMatchObject({
      retry: false,
      staleTime: 0,
      refetchOnWindowFocus: true,
      refetchOnMount: true,
      refetchOnReconnect: true,
    });
    expect(queries?.refetchInterval).toBeFalsy();
    expect(createQueryClient().getDefaultOptions().mutations?.retry).toBe(false);
  });

  it('refetches when the window regains focus', async () => {
    const queryFn = counter();
    show(queryFn);
    expect(await screen.findByText('réponse 1')).toBeInTheDocument();
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    expect(await screen.findByText('réponse 2')).toBeInTheDocument();
    expect(queryFn).toHaveBeenCalledTimes(2);
  });

  it('refetches when the connection comes back', async () => {
    const queryFn = counter();
    show(queryFn);
    expect(await screen.findByText('réponse 1')).toBeInTheDocument();
    act(() => {
      onlineManager.setOnline(false);
      onlineManager.setOnline(true);
    });
    expect(await screen.findByText('réponse 2')).toBeInTheDocument();
    expect(queryFn).toHaveBeenCalledTimes(2);
  });

  it('refetches on every mount: an answer is stale at once', async () => {
    const queryFn = counter();
    const { client, unmount } = show(queryFn);
    expect(await screen.findByText('réponse 1')).toBeInTheDocument();
    unmount();
    // Mounted again at once: the cached answer is shown meanwhile, then the new one.
    show(queryFn, client);
    expect(screen.getByText('réponse 1')).toBeInTheDocument();
    expect(await screen.findByText('réponse 2')).toBeInTheDocument();
    expect(queryFn).toHaveBeenCalledTimes(2);
  });

  it('does not retry a failed query', async () => {
    const queryFn = counter(true);
    show(queryFn);
    // With retries the failure would be shown only after them (1 s, then 2 s, 4 s by default).
    expect(await screen.findByText('échec 1')).toBeInTheDocument();
    expect(queryFn).toHaveBeenCalledTimes(1);
  });

  it('does not poll', async () => {
    vi.useFakeTimers();
    const queryFn = counter();
    show(queryFn);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByText('réponse 1')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    });
    expect(screen.getByText('réponse 1')).toBeInTheDocument();
    expect(queryFn).toHaveBeenCalledTimes(1);
  });
});
