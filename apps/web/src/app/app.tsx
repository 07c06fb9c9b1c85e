import { useState } from 'react';
import { createQueryClient } from '../lib/query-client.ts';
import { preloadSignedIn } from './preload.ts';
import { AppProviders } from './providers.tsx';
import { AppRoutes } from './router.tsx';

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <AppProviders queryClient={queryClient} onSession={() => preloadSignedIn(queryClient)}>
      <AppRoutes />
    </AppProviders>
  );
}
