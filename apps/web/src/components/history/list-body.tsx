import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { LucideIcon } from 'lucide-react';
import type { THistoryPaging } from '@synchro/contracts';
import { ApiError } from '../../lib/api-client.ts';
import { ErrorState } from '../ui/error-state.tsx';
import type { ListPosition } from './list-state.ts';
import { ListLoading, LoadingOverlay } from './loading-overlay.tsx';
import { PagingBar } from './paging-bar.tsx';

/** What a list screen shows of one answer: its row count, its paging and the text beside it. */
export interface ListPage {
  rowCount: number;
  paging: THistoryPaging;
  summary: ReactNode;
}

export interface ListBodyProps<TAnswer> {
  query: UseQueryResult<TAnswer>;
  position: ListPosition;
  onNavigate: (position: ListPosition) => void;
  /** The load failure's title, reason and technical line (ErrorState). */
  failure: (error: Error) => { title: string; message: string; technical?: string };
  loadingLabel: string;
  empty: { icon: LucideIcon; text: string };
  pageOf: (answer: TAnswer) => ListPage;
  /** The table of the answer's rows (not called when it has none). */
  children: (answer: TAnswer) => ReactNode;
}

/**
 * The body of a history list (import history, transaction trace): the load failure with
 * 'Réessayer', the first load, the empty answer, or the rows with the paging bar; the rows stay
 * visible, dimmed, while the next page loads.
 */
export function ListBody<TAnswer>({
  query,
  position,
  onNavigate,
  failure,
  loadingLabel,
  empty,
  pageOf,
  children,
}: ListBodyProps<TAnswer>) {
  if (query.isError) {
    // A cursor the server no longer accepts (a restart, filters changed elsewhere) is retried by
    // page number; any other failure, as it was.
    const retry = () => {
      if (position.cursor && query.error instanceof ApiError && query.error.status === 400) {
        onNavigate({ page: position.page, cursor: null });
      } else void query.refetch();
    };
    return <ErrorState {...failure(query.error)} retrying={query.isFetching} onRetry={retry} />;
  }
  const answer = query.data;
  if (answer === undefined) return <ListLoading label={loadingLabel} />;
  const page = pageOf(answer);
  const EmptyIcon = empty.icon;
  return (
    <div className="relative">
      {page.rowCount === 0 ? (
        <div className="flex flex-col items-center rounded-lg border border-border bg-card px-6 py-14 text-center shadow-card">
          <EmptyIcon aria-hidden="true" className="mb-3 size-8 text-muted-foreground" />
          <p className="text-sm text-muted-foreground">{empty.text}</p>
        </div>
      ) : (
        children(answer)
      )}
      {query.isFetching && query.isPlaceholderData ? <LoadingOverlay label={loadingLabel} /> : null}
      <PagingBar
        paging={page.paging}
        busy={query.isPlaceholderData}
        onNavigate={onNavigate}
        summary={page.summary}
      />
    </div>
  );
}
