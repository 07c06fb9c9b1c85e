import { lazy, Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { LoadingState } from '../components/ui/spinner.tsx';
import { PublicOnly, RequireAuth } from './route-guards.tsx';

// Every screen is its own chunk: the login screen loads none of the console's code.
// The signed-in layout is a chunk of its own too.
const AppShell = lazy(() => import('./shell/app-shell.tsx'));
const LoginPage = lazy(() => import('../features/login/login-page.tsx'));
const DashboardPage = lazy(() => import('../features/dashboard/dashboard-page.tsx'));
const DatabasePage = lazy(() => import('../features/database/database-page.tsx'));
const ExternalLinksPage = lazy(() => import('../features/external-links/external-links-page.tsx'));
const ExternalCalendarsPage = lazy(
  () => import('../features/external-calendars/external-calendars-page.tsx'),
);
const SyncDataPage = lazy(() => import('../features/sync-data/sync-data-page.tsx'));
const ExclusionsPage = lazy(() => import('../features/exclusions/exclusions-page.tsx'));
const ComplementPage = lazy(() => import('../features/complement/complement-page.tsx'));
const PlanningPage = lazy(() => import('../features/planning/planning-page.tsx'));
const TerminalsPage = lazy(() => import('../features/terminals/terminals-page.tsx'));
const ImportHistoryPage = lazy(() => import('../features/import-history/import-history-page.tsx'));
const TransactionLogsPage = lazy(() => import('../features/transaction-logs/transaction-logs-page.tsx'));
const DebugPage = lazy(() => import('../features/debug/debug-page.tsx'));
const NotFoundPage = lazy(() => import('../features/not-found/not-found-page.tsx'));

const screenFallback = <LoadingState label="Chargement de l'écran…" />;

/** The route table (docs/spec-notes.md, Web: Routes and menu). */
export function AppRoutes() {
  return (
    <Switch>
      <Route path="/auth">
        <PublicOnly>
          <Suspense fallback={<LoadingState className="min-h-svh" />}>
            <LoginPage />
          </Suspense>
        </PublicOnly>
      </Route>
      <Route>
        <RequireAuth>
          <Suspense fallback={<LoadingState className="min-h-svh" />}>
            <AppShell>
              <Suspense fallback={screenFallback}>
                <Switch>
                  <Route path="/" component={DashboardPage} />
                  <Route path="/database" component={DatabasePage} />
                  <Route path="/external-links" component={ExternalLinksPage} />
                  <Route path="/external-calendars" component={ExternalCalendarsPage} />
                  <Route path="/sync-data" component={SyncDataPage} />
                  <Route path="/exclusions">
                    <Redirect to="/exclusions/family" replace />
                  </Route>
                  <Route path="/exclusions/simple">
                    <Redirect to="/exclusions/family" replace />
                  </Route>
                  <Route path="/exclusions/family" component={ExclusionsPage} />
                  <Route path="/complement" component={ComplementPage} />
                  <Route path="/planning" component={PlanningPage} />
                  <Route path="/terminals" component={TerminalsPage} />
                  <Route path="/import-history" component={ImportHistoryPage} />
                  <Route path="/transaction-logs" component={TransactionLogsPage} />
                  <Route path="/debug" component={DebugPage} />
                  <Route component={NotFoundPage} />
                </Switch>
              </Suspense>
            </AppShell>
          </Suspense>
        </RequireAuth>
      </Route>
    </Switch>
  );
}
