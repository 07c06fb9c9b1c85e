import { useState, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { TooltipProvider } from '../components/ui/tooltip.tsx';
import { Toaster } from '../components/ui/toast.tsx';
import { AuthProvider } from '../state/auth/auth-provider.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { UnsavedChangesProvider } from '../state/unsaved-changes/unsaved-changes-provider.tsx';

/** Everything the screens rely on. Must sit inside a wouter location (the browser's by default). */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <TooltipProvider>
        <UnsavedChangesProvider>
          <AuthProvider>{children}</AuthProvider>
        </UnsavedChangesProvider>
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
