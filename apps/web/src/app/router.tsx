import { lazy, Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { LoadingState } from '../components/ui/spinner.tsx';
import { PublicOnly, RequireAuth } from './route-guards.tsx';
import { loadAppShell, loadLoginPage, loadNotFoundPage, SCREENS } from './screens.ts';

// Every screen is its own chunk (screens.ts).
const AppShell = lazy(loadAppShell);
const LoginPage = lazy(loadLoginPage);
const DashboardPage = lazy(SCREENS['/']);
const DatabasePage = lazy(SCREENS['/database']);
const ExternalLinksPage = lazy(SCREENS['/external-links']);
const ExternalCalendarsPage = lazy(SCREENS['/external-calendars']);
const SyncDataPage = lazy(SCREENS['/sync-data']);
const ExclusionsPage = lazy(SCREENS['/exclusions/family']);
const ComplementPage = lazy(SCREENS['/complement']);
const PlanningPage = lazy(SCREENS['/planning']);
const TerminalsPage = lazy(SCREENS['/terminals']);
const ImportHistoryPage = lazy(SCREENS['/import-history']);
const TransactionLogsPage = lazy(SCREENS['/transaction-logs']);
const DebugPage = lazy(SCREENS['/debug']);
const ConfigHistoryPage = lazy(SCREENS['/configuration-history']);
const AuditPage = lazy(SCREENS['/audit']);
const NotFoundPage = lazy(loadNotFoundPage);

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
                  <Route path="/configuration-history" component={ConfigHistoryPage} />
                  <Route path="/audit" component={AuditPage} />
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
