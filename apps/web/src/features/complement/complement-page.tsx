import { SlidersHorizontal } from 'lucide-react';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';

export default function ComplementPage() {
  return (
    <ComingSoon
      title="Complément"
      description="Géocodage, GED, rapports par e-mail et script complémentaire."
      icon={<SlidersHorizontal aria-hidden="true" />}
    />
  );
}
