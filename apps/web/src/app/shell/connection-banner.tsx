import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { WifiOff } from 'lucide-react';
import { API_PATHS } from '@synchro/contracts/constants';
import { apiFetch } from '../../lib/api-client.ts';
import { connectionStore } from '../../lib/connection-store.ts';

export const CONNECTION_LOST = 'Connexion au serveur perdue — nouvelle tentative…';
/** How often the banner asks whether the server is back. */
const PROBE_MS = 3_000;

/**
 * During a session, when a call finds the server unreachable or answering 5xx: a banner that asks
 * GET /api/user every few seconds and goes away by itself at the first answer; the queries that
 * failed meanwhile are fetched again. The screen stays mounted, so nothing typed is lost.
 */
export function ConnectionBanner() {
  const lost = useSyncExternalStore(connectionStore.subscribe, connectionStore.isLost);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!lost) return;
    let stopped = false;
    const timer = setInterval(() => {
      apiFetch('GET', API_PATHS.user).catch(() => undefined);
    }, PROBE_MS);
    const unsubscribe = connectionStore.subscribe(() => {
      if (stopped || connectionStore.isLost()) return;
      stopped = true;
      void queryClient.invalidateQueries({ predicate: (q) => q.state.status === 'error' });
    });
    return () => {
      clearInterval(timer);
      unsubscribe();
    };
  }, [lost, queryClient]);
  if (!lost) return null;
  return (
    <div
      role="status"
      className="sticky top-0 z-40 flex items-center justify-center gap-2 border-b border-destructive/30 bg-destructive-soft px-4 py-2 text-sm font-medium text-destructive"
    >
      <WifiOff aria-hidden="true" className="size-4 shrink-0" />
      {CONNECTION_LOST}
    </div>
  );
}
