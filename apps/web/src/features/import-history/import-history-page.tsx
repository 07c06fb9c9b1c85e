import { useCallback, useState } from 'react';
import { Inbox } from 'lucide-react';
import { nextEtat, type TSyncHistoryRow } from '@synchro/contracts';
import { ApiError, errorDetail } from '../../lib/api-client.ts';
import { saveFile } from '../../lib/save-file.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { queryKeys } from '../../lib/query-keys.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { NewItemsNotice } from '../../components/history/new-items-notice.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { FilterBar } from '../../components/history/filter-bar.tsx';
import { useListState } from '../../components/history/list-state.ts';
import { ListBody } from '../../components/history/list-body.tsx';
import { totalLabel } from '../../components/history/paging-bar.tsx';
import { TimeZoneNotice } from '../../components/history/time-zone-notice.tsx';
import { withRetention } from '../../components/history/retention.ts';
import { fetchRecordFile, historyExportUrl, useStatusChange, useSyncHistory } from './history-api.ts';
import { HISTORY_TEXT } from './history-messages.ts';
import { BulkActions } from './bulk-actions.tsx';
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

  return (
    <>
      <PageHeader
        title={HISTORY_TEXT.title}
        description={withRetention(HISTORY_TEXT.description, page?.retentionDays, HISTORY_TEXT.retention)}
        actions={
          <Badge variant="neutral" className="font-mono">
            Version {HISTORY_TEXT.version}
          </Badge>
        }
      />
      <NewItemsNotice list="records" queryKey={queryKeys.syncHistory} />
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
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        {list.filters.waiting ? (
          <p className="flex items-center gap-2 text-sm">
            <Badge variant="neutral">Non traités uniquement</Badge>
            <button
              type="button"
              className="font-medium text-primary underline-offset-2 hover:underline"
              onClick={() => list.setWaiting(false)}
            >
              Retirer ce filtre
            </button>
          </p>
        ) : (
          <span />
        )}
        <BulkActions filters={list.filters} disabled={!page || page.total === 0} />
      </div>
      <ListBody
        query={query}
        position={list.position}
        onNavigate={list.goTo}
        failure={(error) => ({
          title: HISTORY_TEXT.loadErrorTitle,
          message: errorDetail(error, 'Le serveur ne répond pas.'),
          technical: HISTORY_TEXT.fetchFailed,
        })}
        loadingLabel={HISTORY_TEXT.loading}
        empty={{ icon: Inbox, text: HISTORY_TEXT.empty }}
        pageOf={(answer) => ({
          rowCount: answer.data.length,
          paging: answer,
          summary: `${totalLabel(answer)} enregistrement${answer.total > 1 ? 's' : ''}`,
        })}
      >
        {(answer) => (
          <HistoryTable
            rows={answer.data}
            zone={zone}
            pendingIds={pendingIds}
            downloadingIds={downloadingIds}
            onCycle={cycle}
            onEditXml={setXmlRow}
            onShowLog={setLogRow}
            onDownloadFile={(row) => void downloadFile(row)}
          />
        )}
      </ListBody>
      {xmlRow ? <XmlEditorDialog key={xmlRow.IDInterne} row={xmlRow} zone={zone} onClose={closeXml} /> : null}
      <LogDialog key={logRow?.IDInterne ?? ''} record={logRow} onClose={closeLog} />
    </>
  );
}
