import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowUp } from 'lucide-react';
import { liveCounts, newRecordsLabel, type LiveList } from '../../lib/live-counts.ts';
import { Button } from '../ui/button.tsx';

/**
 * « N nouveaux enregistrements — Afficher »: what the live events counted since the list was
 * shown. Floating (fixed), so the rows being read do not move; « Afficher » refetches the list.
 */
export function NewItemsNotice({ list, queryKey }: { list: LiveList; queryKey: readonly unknown[] }) {
  const count = useSyncExternalStore(liveCounts.subscribe, () => liveCounts.get(list));
  const client = useQueryClient();
  // The list is fetched anew when the screen opens: what arrived before is in it.
  useEffect(() => liveCounts.reset(list), [list]);
  return (
    <div role="status" className="pointer-events-none fixed inset-x-0 bottom-4 z-40 flex justify-center px-4">
      {count > 0 ? (
        <div className="pointer-events-auto flex items-center gap-2 rounded-full border border-primary/30 bg-card py-1 pr-1 pl-3 text-sm shadow-lg sm:pl-4">
          {/* The dash stays with the words: never alone on a line of a narrow screen. */}
          <span className="whitespace-nowrap">{newRecordsLabel(count)}&nbsp;—</span>
          <Button
            type="button"
            size="sm"
            className="rounded-full"
            onClick={() => {
              liveCounts.reset(list);
              void client.invalidateQueries({ queryKey });
            }}
          >
            <ArrowUp aria-hidden="true" />
            Afficher
          </Button>
        </div>
      ) : null}
    </div>
  );
}
