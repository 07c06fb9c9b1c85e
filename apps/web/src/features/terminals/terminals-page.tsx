import { TabletSmartphone } from 'lucide-react';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';

export default function TerminalsPage() {
  return (
    <ComingSoon
      title="Terminaux"
      description="Utilisateurs, identifiants et fonctionnalités autorisées de chaque terminal."
      icon={<TabletSmartphone aria-hidden="true" />}
    />
  );
}
