import { ListChecks } from 'lucide-react';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';

export default function SyncDataPage() {
  return (
    <ComingSoon
      title="Données à synchroniser"
      description="Données envoyées aux terminaux et profondeur de leur historique."
      icon={<ListChecks aria-hidden="true" />}
    />
  );
}
