import { useCallback, useState } from 'react';
import { Inbox } from 'lucide-react';
import { nextEtat, type TSyncHistoryRow } from '@synchro/contracts';
import { ApiError, errorDetail } from '../../lib/api-client.ts';
import { saveFile } from '../../lib/save-file.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { ErrorState } from '../../components/ui/error-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { FilterBar } from '../../components/history/filter-bar.tsx';
import { useListState } from '../../components/history/list-state.ts';
import { ListLoading, LoadingOverlay } from '../../components/history/loading-overlay.tsx';
import { PagingBar, totalLabel } from '../../components/history/paging-bar.tsx';
import { TimeZoneNotice } from '../../components/history/time-zone-notice.tsx';
import { fetchRecordFile, historyExportUrl, useStatusChange, useSyncHistory } from './history-api.ts';
import { HISTORY_TEXT } from './history-messages.ts';
import { HistoryTable } from './history-table.tsx';
import { LogDialog } from './log-dialog.tsx';
import { XmlEditorDialog } from './xml-editor-dialog.tsx';

const without = (set: ReadonlySet<string>, id: string) => new Set([...set].filter((v) => v !== id));

export default function ImportHistoryPage() {
  usePageTitle(HISTORY_TEXT.title);
  const list = useListState();
  const query = useSyncHistory(list.filters, list.position);
  const [pendingIds, setPendingIds] = useState<ReadonlySet<string>>(new Set());
  const [downloadingIds, setDownloadingIds] = useState<ReadonlySet<string>>(new Set());
  const [xmlRow, setXmlRow] = useState<TSyncHistoryRow | null>(null);
  const [logRow, setLogRow] = useState<TSyncHistoryRow | null>(null);
  const closeXml = useCallback(() => setXmlRow(null), []);
  const closeLog = useCallback(() => setLogRow(null), []);

  const status = useStatusChange({
    onError: (error) =>
      toast({
        title: HISTORY_TEXT.statusFailed,
        description: errorDetail(error, 'Le serveur ne répond pas.'),
        variant: 'destructive',
      }),
  });

  const cycle = (row: TSyncHistoryRow) => {
    const id = row.IDInterne;
    setPendingIds((ids) => new Set(ids).add(id));
    status.mutate(
      { id, newStatus: nextEtat(row.Etat) },
      { onSettled: () => setPendingIds((ids) => without(ids, id)) },
    );
  };

  const downloadFile = async (row: TSyncHistoryRow) => {
    const id = row.IDInterne;
    if (!id) {
      toast({
        title: 'Téléchargement impossible',
        description: HISTORY_TEXT.fileIdMissing,
        variant: 'destructive',
      });
      return;
    }
    setDownloadingIds((ids) => new Set(ids).add(id));
    try {
      const file = await fetchRecordFile(id);
      saveFile(file.blob, file.fileName);
    } catch (error) {
      const [title, description] =
        error instanceof ApiError && error.status === 404
          ? HISTORY_TEXT.fileNotFound.split(' - ')
          : ['Téléchargement impossible', HISTORY_TEXT.fileFailed];
      toast({ title: title!, description, variant: 'destructive' });
    } finally {
      setDownloadingIds((ids) => without(ids, id));
    }
  };

  const page = query.data;
  const zone = page?.displayTimeZone.zone ?? 'Europe/Paris';
  // A cursor the server no longer accepts (a restart, filters changed elsewhere): retry by number.
  const retry = () => {
    if (list.position.cursor && query.error instanceof ApiError && query.error.status === 400) {
      list.goTo({ page: list.position.page, cursor: null });
    } else void query.refetch();
  };

  return (
    <>
      <PageHeader
        title={HISTORY_TEXT.title}
        description="Les saisies des terminaux mobiles importées dans votre ERP, et leur état de traitement."
        actions={
          <Badge variant="neutral" className="font-mono">
            Version {HISTORY_TEXT.version}
          </Badge>
        }
      />
      <TimeZoneNotice displayTimeZone={page?.displayTimeZone} />
      <FilterBar
        filters={list.filters}
        searchLabel={HISTORY_TEXT.searchLabel}
        searchPlaceholder={HISTORY_TEXT.searchPlaceholder}
        errorOnlyLabel={HISTORY_TEXT.errorOnly}
        onDayChange={list.setDay}
        onSearch={list.setSearch}
        onErrorOnlyChange={list.setErrorOnly}
        exportHref={historyExportUrl(list.filters)}
      />
      {query.isError ? (
        <ErrorState
          title="Impossible de charger l'historique"
          message={errorDetail(query.error, 'Le serveur ne répond pas.')}
          technical={HISTORY_TEXT.fetchFailed}
          retrying={query.isFetching}
          onRetry={retry}
        />
      ) : !page ? (
        <ListLoading label={HISTORY_TEXT.loading} />
      ) : (
        <div className="relative">
          {page.data.length === 0 ? (
            <div className="flex flex-col items-center rounded-lg border border-border bg-card px-6 py-14 text-center shadow-card">
              <Inbox aria-hidden="true" className="mb-3 size-8 text-muted-foreground" />
              <p className="text-sm text-muted-foreground">{HISTORY_TEXT.empty}</p>
            </div>
          ) : (
            <HistoryTable
              rows={page.data}
              zone={zone}
              pendingIds={pendingIds}
              downloadingIds={downloadingIds}
              onCycle={cycle}
              onEditXml={setXmlRow}
              onShowLog={setLogRow}
              onDownloadFile={(row) => void downloadFile(row)}
            />
          )}
          {query.isFetching && query.isPlaceholderData ? (
            <LoadingOverlay label={HISTORY_TEXT.loading} />
          ) : null}
          <PagingBar
            paging={page}
            busy={query.isPlaceholderData}
            onNavigate={list.goTo}
            summary={`${totalLabel(page)} enregistrement${page.total > 1 ? 's' : ''}`}
          />
        </div>
      )}
      {xmlRow ? <XmlEditorDialog key={xmlRow.IDInterne} row={xmlRow} zone={zone} onClose={closeXml} /> : null}
      <LogDialog key={logRow?.IDInterne ?? ''} record={logRow} onClose={closeLog} />
    </>
  );
}
