import { useCallback, useState } from 'react';
import { SearchX } from 'lucide-react';
import type { TTransactionLogRow } from '@synchro/contracts';
import { ApiError, errorDetail } from '../../lib/api-client.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { ErrorState } from '../../components/ui/error-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { FilterBar } from '../../components/history/filter-bar.tsx';
import { useListState } from '../../components/history/list-state.ts';
import { ListLoading, LoadingOverlay } from '../../components/history/loading-overlay.tsx';
import { PagingBar, totalLabel } from '../../components/history/paging-bar.tsx';
import { TimeZoneNotice } from '../../components/history/time-zone-notice.tsx';
import { TransactionDetailDialog } from './transaction-detail-dialog.tsx';
import { transactionLogsExportUrl, useTransactionLogs } from './transaction-logs-api.ts';
import { TRACE_TEXT, displaySummary } from './transaction-messages.ts';
import { TransactionTable } from './transaction-table.tsx';

export default function TransactionLogsPage() {
  usePageTitle(TRACE_TEXT.title);
  const list = useListState();
  const query = useTransactionLogs(list.filters, list.position);
  const [detailRow, setDetailRow] = useState<TTransactionLogRow | null>(null);
  const closeDetail = useCallback(() => setDetailRow(null), []);
  const answer = query.data;
  const zone = answer?.displayTimeZone.zone ?? 'Europe/Paris';

  // A cursor the server no longer accepts (a restart, filters changed elsewhere): retry by number.
  const retry = () => {
    if (list.position.cursor && query.error instanceof ApiError && query.error.status === 400) {
      list.goTo({ page: list.position.page, cursor: null });
    } else void query.refetch();
  };

  return (
    <>
      <PageHeader
        title={TRACE_TEXT.title}
        description="Les échanges traités par le connecteur pour chaque terminal, avec leur log."
      />
      <TimeZoneNotice displayTimeZone={answer?.displayTimeZone} />
      <FilterBar
        filters={list.filters}
        searchLabel={TRACE_TEXT.searchLabel}
        searchPlaceholder={TRACE_TEXT.searchPlaceholder}
        errorOnlyLabel={TRACE_TEXT.errorOnly}
        onDayChange={list.setDay}
        onSearch={list.setSearch}
        onErrorOnlyChange={list.setErrorOnly}
        exportHref={transactionLogsExportUrl(list.filters)}
      />
      {query.isError ? (
        <ErrorState
          title={TRACE_TEXT.loadErrorTitle}
          message={TRACE_TEXT.loadError}
          technical={errorDetail(query.error, '')}
          retrying={query.isFetching}
          onRetry={retry}
        />
      ) : !answer ? (
        <ListLoading label={TRACE_TEXT.loading} />
      ) : (
        <div className="relative">
          {answer.logs.length === 0 ? (
            <div className="flex flex-col items-center rounded-lg border border-border bg-card px-6 py-14 text-center shadow-card">
              <SearchX aria-hidden="true" className="mb-3 size-8 text-muted-foreground" />
              <p className="text-sm text-muted-foreground">{TRACE_TEXT.empty}</p>
            </div>
          ) : (
            <TransactionTable rows={answer.logs} zone={zone} onShowDetail={setDetailRow} />
          )}
          {query.isFetching && query.isPlaceholderData ? <LoadingOverlay label={TRACE_TEXT.loading} /> : null}
          <PagingBar
            paging={answer.pagination}
            busy={query.isPlaceholderData}
            onNavigate={list.goTo}
            summary={displaySummary(answer.logs.length, totalLabel(answer.pagination))}
          />
        </div>
      )}
      <TransactionDetailDialog row={detailRow} zone={zone} onClose={closeDetail} />
    </>
  );
}
