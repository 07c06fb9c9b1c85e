import { ListFilter } from 'lucide-react';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';

export default function ExclusionsPage() {
  return (
    <ComingSoon
      title="Exclusions de la synchro"
      description="Familles d'articles, de clients et de fournisseurs exclues de la synchronisation."
      icon={<ListFilter aria-hidden="true" />}
    />
  );
}
