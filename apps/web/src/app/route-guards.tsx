import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { ErrorState } from '../components/ui/error-state.tsx';
import { LoadingState } from '../components/ui/spinner.tsx';
import { useAuth } from '../state/auth/auth-context.ts';

/** The spec's text when GET /api/user fails (docs/spec-notes.md, Web: Calls and errors). */
export const USER_FETCH_FAILED = 'Failed to fetch user data';

/** The session could not be read (server unreachable or 5xx): say so, offer « Réessayer ». */
function SessionLoadFailed() {
  const { retryLoad, isRetrying } = useAuth();
  return (
    <main className="grid min-h-svh place-content-center p-4">
      <h1 className="sr-only">Console de synchronisation</h1>
      <ErrorState
        className="w-full max-w-lg"
        title={USER_FETCH_FAILED}
        message="Le serveur ne répond pas. Vérifiez votre connexion puis réessayez."
        onRetry={retryLoad}
        retrying={isRetrying}
      />
    </main>
  );
}

/** Every route but /auth: a spinner while the session loads, /auth when signed out. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, isLoading, loadFailed } = useAuth();
  if (isLoading) return <LoadingState label="Vérification de la session…" className="min-h-svh" />;
  if (loadFailed) return <SessionLoadFailed />;
  if (!user) return <Redirect to="/auth" replace />;
  return <>{children}</>;
}

/** /auth: a signed-in user goes to '/'. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const { user, isLoading, loadFailed } = useAuth();
  if (isLoading) return <LoadingState label="Vérification de la session…" className="min-h-svh" />;
  if (loadFailed) return <SessionLoadFailed />;
  if (user) return <Redirect to="/" replace />;
  return <>{children}</>;
}
