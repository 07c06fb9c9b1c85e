import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { liveCounts } from '../../lib/live-counts.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export const LIVE_EVENTS_PATH = '/api/events';

interface LiveEvent {
  type: string;
  count?: number;
  version?: number;
}

/** What each event of GET /api/events refreshes (docs/live.md, Web). */
export function applyLiveEvent(client: QueryClient, event: LiveEvent): void {
  const refresh = (queryKey: readonly unknown[]) => void client.invalidateQueries({ queryKey });
  switch (event.type) {
    case 'automate':
    case 'last-sync':
      refresh(queryKeys.dashboard);
      refresh(queryKeys.user);
      return;
    case 'records':
      refresh(queryKeys.dashboard);
      liveCounts.add('records', event.count ?? 0);
      return;
    case 'transactions':
      refresh(queryKeys.dashboard);
      // Terminaux's figures and last exchanges (a terminal's recent transactions included).
      refresh(queryKeys.terminalsActivity);
      liveCounts.add('transactions', event.count ?? 0);
      return;
    case 'record-state':
      // In place: the rows shown keep their places, their states change.
      refresh(queryKeys.dashboard);
      refresh(queryKeys.syncHistory);
      return;
    case 'config':
      // A screen being edited keeps its edits (use-config-section.ts) and says the
      // configuration changed elsewhere when the version moved past the one it started from.
      refresh(['config']);
      refresh(queryKeys.dashboard);
      refresh(queryKeys.user);
      refresh(queryKeys.configHistory);
      return;
  }
}

const TYPES = ['automate', 'last-sync', 'records', 'transactions', 'record-state', 'config'];

/**
 * The signed-in shell's event stream. EventSource reconnects by itself (after the server's
 * `retry`); on each reconnection the screens refetch, since events sent while away are lost.
 */
export function useLiveEvents(): void {
  const client = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(LIVE_EVENTS_PATH, { withCredentials: true });
    let opened = false;
    const onEvent = (e: MessageEvent<string>) => {
      try {
        applyLiveEvent(client, JSON.parse(e.data) as LiveEvent);
      } catch {
        // Not ours.
      }
    };
    const onOpen = () => {
      if (opened) void client.invalidateQueries({ predicate: (q) => q.getObserversCount() > 0 });
      opened = true;
    };
    for (const type of TYPES) source.addEventListener(type, onEvent);
    source.addEventListener('open', onOpen);
    return () => source.close();
  }, [client]);
}
