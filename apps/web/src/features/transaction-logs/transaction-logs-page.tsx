import { useCallback, useState } from 'react';
import { SearchX } from 'lucide-react';
import type { TTransactionLogRow } from '@synchro/contracts';
import { errorDetail } from '../../lib/api-client.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { NewItemsNotice } from '../../components/history/new-items-notice.tsx';
import { FilterBar } from '../../components/history/filter-bar.tsx';
import { useListState } from '../../components/history/list-state.ts';
import { ListBody } from '../../components/history/list-body.tsx';
import { totalLabel } from '../../components/history/paging-bar.tsx';
import { TimeZoneNotice } from '../../components/history/time-zone-notice.tsx';
import { withRetention } from '../../components/history/retention.ts';
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

  return (
    <>
      <PageHeader
        title={TRACE_TEXT.title}
        description={withRetention(TRACE_TEXT.description, answer?.retentionDays, TRACE_TEXT.retention)}
      />
      <NewItemsNotice list="transactions" queryKey={queryKeys.transactionLogs} />
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
      {list.filters.terminals ? (
        <p className="mb-4 flex flex-wrap items-center gap-2 text-sm">
          <span className="rounded-md bg-muted px-2 py-0.5">
            Terminal :{' '}
            {list.filters.terminals.map((id, i) => (
              <span key={id}>
                {i > 0 ? ' ou ' : null}
                <span className="font-mono">{id}</span>
              </span>
            ))}
          </span>
          <button
            type="button"
            className="font-medium text-primary underline-offset-2 hover:underline"
            onClick={() => list.setTerminals(undefined)}
          >
            Retirer ce filtre
          </button>
        </p>
      ) : null}
      <ListBody
        query={query}
        position={list.position}
        onNavigate={list.goTo}
        failure={(error) => ({
          title: TRACE_TEXT.loadErrorTitle,
          message: TRACE_TEXT.loadError,
          technical: errorDetail(error, ''),
        })}
        loadingLabel={TRACE_TEXT.loading}
        empty={{ icon: SearchX, text: TRACE_TEXT.empty }}
        pageOf={(page) => ({
          rowCount: page.logs.length,
          paging: page.pagination,
          summary: displaySummary(page.logs.length, totalLabel(page.pagination)),
        })}
      >
        {(page) => <TransactionTable rows={page.logs} zone={zone} onShowDetail={setDetailRow} />}
      </ListBody>
      <TransactionDetailDialog row={detailRow} zone={zone} onClose={closeDetail} />
    </>
  );
}
