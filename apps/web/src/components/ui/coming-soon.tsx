import type { ReactNode } from 'react';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { EmptyState } from './empty-state.tsx';
import { PageHeader } from './page-header.tsx';

/** Placeholder of a screen that a later version brings. */
export function ComingSoon({
  title,
  description,
  icon,
}: {
  title: string;
  description: string;
  icon: ReactNode;
}) {
  usePageTitle(title);
  return (
    <>
      <PageHeader title={title} description={description} />
      <EmptyState icon={icon} title="Cet écran arrive bientôt">
        <p>
          Cette partie de la console est en cours de réalisation. En attendant, la configuration
          correspondante reste modifiable depuis le connecteur installé sur votre serveur.
        </p>
      </EmptyState>
    </>
  );
}
