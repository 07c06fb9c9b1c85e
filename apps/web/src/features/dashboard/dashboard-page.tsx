import { ErrorState } from '../../components/ui/error-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { LoadingState } from '../../components/ui/spinner.tsx';
import { errorDetail } from '../../lib/api-client.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useDashboard } from './dashboard-api.ts';
import { DashboardView } from './dashboard-view.tsx';

export default function DashboardPage() {
  usePageTitle('Général');
  const query = useDashboard();

  if (query.isPending) return <LoadingState label="Chargement du tableau de bord…" />;
  if (query.isError) {
    return (
      <>
        <PageHeader title="Général" />
        <ErrorState
          title="Impossible de charger le tableau de bord"
          message={errorDetail(query.error, 'Le serveur ne répond pas.')}
          retrying={query.isFetching}
          onRetry={() => void query.refetch()}
        />
      </>
    );
  }
  return <DashboardView view={query.data} fetchedAt={query.dataUpdatedAt} />;
}
