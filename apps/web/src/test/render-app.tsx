import { render } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { vi } from 'vitest';
import type { ReactNode } from 'react';
import { AppProviders } from '../app/providers.tsx';
import { AppRoutes } from '../app/router.tsx';
import { createQueryClient } from '../lib/query-client.ts';

export type Handler = (init: RequestInit, url: string) => Response | Promise<Response>;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Replaces fetch with a table of "METHOD /path" handlers; unknown calls answer 404. */
export function mockApi(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input.toString();
    const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
    const handler = handlers[key];
    if (!handler) return json({ message: `Pas de route ${key}` }, 404);
    return handler(init, url);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export function renderWithRouter(ui: ReactNode, path = '/') {
  const location = memoryLocation({ path, record: true });
  const queryClient = createQueryClient();
  const result = render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <AppProviders queryClient={queryClient}>{ui}</AppProviders>
    </Router>,
  );
  return { ...result, location, queryClient };
}

/** `ui` inside the app's providers on the browser's own location (jsdom's History API). */
export function renderWithProviders(ui: ReactNode) {
  const queryClient = createQueryClient();
  const wrap = (node: ReactNode) => <AppProviders queryClient={queryClient}>{node}</AppProviders>;
  const result = render(wrap(ui));
  /** `ui` rendered again with new props, in the same providers (its state kept). */
  const rerender = (next: ReactNode) => result.rerender(wrap(next));
  return { ...result, rerender, queryClient };
}

/** The whole SPA at `path`, on an in-memory location. */
export function renderApp(path = '/') {
  return renderWithRouter(<AppRoutes />, path);
}
