import type { ReactNode } from 'react';
import { ChevronFirst, ChevronLast, ChevronLeft, ChevronRight } from 'lucide-react';
import type { THistoryPaging } from '@synchro/contracts';
import { formatNumber } from '../../lib/format.ts';
import { Button } from '../ui/button.tsx';
import type { ListPosition } from './list-state.ts';

/** 'Page 3 sur 120', or 'Page 3 sur plus de 400' when a search's total is bounded. */
export function pageLabel(paging: THistoryPaging): string {
  const pages = Math.max(paging.totalPages, 1);
  return `Page ${formatNumber(paging.page)} sur ${paging.totalExact ? '' : 'plus de '}${formatNumber(pages)}`;
}

/** '1 234' or 'plus de 10 000' (a search counted up to its bound). */
export function totalLabel(paging: Pick<THistoryPaging, 'total' | 'totalExact'>): string {
  return `${paging.totalExact ? '' : 'plus de '}${formatNumber(paging.total)}`;
}

export interface PagingBarProps {
  paging: THistoryPaging;
  onNavigate: (position: ListPosition) => void;
  /** Disables the buttons (a page is loading). */
  busy?: boolean;
  /** Text beside the buttons ('Affichage de n sur total enregistrements'). */
  summary?: ReactNode;
}

/**
 * 'Précédent', 'Page x sur y', 'Suivant' (docs/spec-notes.md, Import history and transaction trace),
 * plus the first and last pages. The neighbouring pages are read from this page's edge with the
 * answer's keyset cursors; the first and last by number (the server reads the last from the far
 * end). A bounded total has no known last page.
 */
export function PagingBar({ paging, onNavigate, busy = false, summary }: PagingBarProps) {
  const lastKnown = paging.totalExact && paging.totalPages > 1;
  return (
    <nav
      aria-label="Pagination"
      className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between"
    >
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {summary}
      </p>
      <div className="flex flex-wrap items-center justify-center gap-1 sm:flex-nowrap sm:justify-end">
        <Button
          variant="ghost"
          size="icon"
          aria-label="Première page"
          disabled={busy || paging.page <= 1}
          onClick={() => onNavigate({ page: 1, cursor: null })}
        >
          <ChevronFirst aria-hidden="true" />
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={busy || !paging.hasPrevious}
          onClick={() => onNavigate({ page: paging.page - 1, cursor: paging.previousCursor })}
        >
          <ChevronLeft aria-hidden="true" />
          Précédent
        </Button>
        <span className="order-first w-full px-2 pb-1 text-center text-sm font-medium whitespace-nowrap tabular-nums sm:order-none sm:w-auto sm:min-w-28 sm:pb-0">
          {pageLabel(paging)}
        </span>
        <Button
          variant="outline"
          size="sm"
          disabled={busy || !paging.hasNext}
          onClick={() => onNavigate({ page: paging.page + 1, cursor: paging.nextCursor })}
        >
          Suivant
          <ChevronRight aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Dernière page"
          disabled={busy || !lastKnown || paging.page >= paging.totalPages}
          onClick={() => onNavigate({ page: paging.totalPages, cursor: null })}
        >
          <ChevronLast aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
