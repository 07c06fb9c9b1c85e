import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { LoadingState } from '../components/ui/spinner.tsx';
import { useAuth } from '../state/auth/auth-context.ts';

/** Every route but /auth: a spinner while the session loads, /auth when signed out. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, isLoading } = useAuth();
  if (isLoading) return <LoadingState label="Vérification de la session…" className="min-h-svh" />;
  if (!user) return <Redirect to="/auth" replace />;
  return <>{children}</>;
}

/** /auth: a signed-in user goes to '/'. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const { user, isLoading } = useAuth();
  if (isLoading) return <LoadingState label="Vérification de la session…" className="min-h-svh" />;
  if (user) return <Redirect to="/" replace />;
  return <>{children}</>;
}
