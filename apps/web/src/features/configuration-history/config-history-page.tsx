import { useCallback, useId, useState } from 'react';
import { FileClock, Info } from 'lucide-react';
import type { TConfigVersionRow } from '@synchro/contracts';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { Label } from '../../components/ui/label.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { ListBody } from '../../components/history/list-body.tsx';
import { FIRST_PAGE, type ListPosition } from '../../components/history/list-state.ts';
import { TimeZoneNotice } from '../../components/history/time-zone-notice.tsx';
import { errorDetail } from '../../lib/api-client.ts';
import { formatNumber } from '../../lib/format.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { ChangesDialog } from './changes-dialog.tsx';
import { useConfigHistory } from './config-history-api.ts';
import { HISTORY_TEXT, retentionText } from './history-text.ts';
import { RestoreDialog } from './restore-dialog.tsx';
import { VersionList } from './version-list.tsx';

export default function ConfigHistoryPage() {
  usePageTitle(HISTORY_TEXT.title);
  const [connector, setConnector] = useState(false);
  const [position, setPosition] = useState<ListPosition>(FIRST_PAGE);
  const query = useConfigHistory(connector, position);
  const [changesOf, setChangesOf] = useState<number | null>(null);
  const [restoreOf, setRestoreOf] = useState<TConfigVersionRow | null>(null);
  const toggleId = useId();
  const answer = query.data;
  const zone = answer?.displayTimeZone.zone ?? 'Europe/Paris';
  const showConnector = useCallback((on: boolean) => {
    setConnector(on);
    setPosition(FIRST_PAGE);
  }, []);

  return (
    <>
      <PageHeader title={HISTORY_TEXT.title} description={HISTORY_TEXT.description} />
      <TimeZoneNotice displayTimeZone={answer?.displayTimeZone} />
      <section
        aria-label="Options de l’historique"
        className="mb-4 grid gap-3 rounded-lg border border-border bg-card p-4 text-sm shadow-card"
      >
        <div className="flex items-center gap-2.5">
          <Checkbox id={toggleId} checked={connector} onCheckedChange={(c) => showConnector(c === true)} />
          <Label htmlFor={toggleId}>{HISTORY_TEXT.connectorToggle}</Label>
        </div>
        {answer ? (
          <p className="flex gap-2 text-muted-foreground">
            <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            {retentionText(answer.retention)}
          </p>
        ) : null}
      </section>
      <ListBody
        query={query}
        position={position}
        onNavigate={setPosition}
        failure={(error) => ({
          title: HISTORY_TEXT.loadErrorTitle,
          message: 'Le serveur n’a pas pu lire les versions. Réessayez.',
          technical: errorDetail(error, ''),
        })}
        loadingLabel={HISTORY_TEXT.loading}
        empty={{ icon: FileClock, text: HISTORY_TEXT.empty }}
        pageOf={(page) => ({
          rowCount: page.versions.length,
          paging: page.pagination,
          summary: `${formatNumber(page.pagination.total)} version${page.pagination.total > 1 ? 's' : ''}`,
        })}
      >
        {(page) => (
          <VersionList
            versions={page.versions}
            zone={zone}
            onShowChanges={(row) => setChangesOf(row.version)}
            onRestore={setRestoreOf}
            onShowConnector={() => showConnector(true)}
          />
        )}
      </ListBody>
      <ChangesDialog version={changesOf} onClose={() => setChangesOf(null)} />
      <RestoreDialog
        key={restoreOf?.version ?? 0}
        row={restoreOf}
        currentVersion={answer?.currentVersion ?? 0}
        onClose={() => setRestoreOf(null)}
      />
    </>
  );
}
