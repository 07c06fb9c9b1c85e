import { useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { TooltipProvider } from '../components/ui/tooltip.tsx';
import { Toaster } from '../components/ui/toast.tsx';
import type { OnSession } from '../state/auth/auth-api.ts';
import { AuthProvider } from '../state/auth/auth-provider.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { UnsavedChangesProvider } from '../state/unsaved-changes/unsaved-changes-provider.tsx';

/**
 * Everything the screens rely on. Must sit inside a wouter location (the browser's by default).
 * `onSession`: see AuthProvider (the app passes its preload; tests leave it out).
 */
export function AppProviders({
  children,
  queryClient,
  onSession,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
  onSession?: OnSession;
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <TooltipProvider>
        <UnsavedChangesProvider>
          <AuthProvider onSession={onSession}>{children}</AuthProvider>
        </UnsavedChangesProvider>
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
