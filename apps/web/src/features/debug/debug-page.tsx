import { useState } from 'react';
import { FileClock, RefreshCw } from 'lucide-react';
import { Link } from 'wouter';
import type { TRepairResponse } from '@synchro/contracts';
import { Button } from '../../components/ui/button.tsx';
import { ErrorState } from '../../components/ui/error-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { LoadingState } from '../../components/ui/spinner.tsx';
import { errorDetail } from '../../lib/api-client.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useAuth } from '../../state/auth/auth-context.ts';
import { useXmlStatus } from './debug-api.ts';
import { DiagnosticView } from './diagnostic-view.tsx';

const TITLE = 'Diagnostic XML de Configuration';

export default function DebugPage() {
  usePageTitle(TITLE);
  const { user } = useAuth();
  const query = useXmlStatus();
  const [repairResult, setRepairResult] = useState<TRepairResponse | null>(null);
  const syncId = user?.IDSynchro;

  const refresh = (
    <Button
      variant="outline"
      busy={query.isFetching && !query.isPending}
      disabled={query.isPending}
      onClick={() => void query.refetch()}
    >
      {query.isFetching && !query.isPending ? null : <RefreshCw aria-hidden="true" />}
      Actualiser
    </Button>
  );
  const header = (
    <PageHeader
      title={TITLE}
      description={
        syncId ? (
          <>
            Document de configuration du connecteur de l'installation{' '}
            <span className="font-mono font-medium text-foreground">{syncId}</span>.
          </>
        ) : (
          'Document de configuration du connecteur.'
        )
      }
      actions={
        <>
          <Button asChild variant="outline">
            <Link href="/configuration-history">
              <FileClock aria-hidden="true" />
              Historique de la configuration
            </Link>
          </Button>
          {refresh}
        </>
      }
    />
  );

  if (query.isPending) {
    return (
      <>
        {header}
        <LoadingState label="Chargement du diagnostic…" />
      </>
    );
  }
  if (query.isError) {
    return (
      <>
        {header}
        <ErrorState
          title="Impossible de charger le diagnostic"
          message={errorDetail(query.error, 'Le serveur ne répond pas.')}
          retrying={query.isFetching}
          onRetry={() => void query.refetch()}
        />
      </>
    );
  }
  return (
    <>
      {header}
      <DiagnosticView diagnostic={query.data} repairResult={repairResult} onRepaired={setRepairResult} />
    </>
  );
}
