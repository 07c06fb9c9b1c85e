import { Database } from 'lucide-react';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';

export default function DatabasePage() {
  return (
    <ComingSoon
      title="Base de données source"
      description="Paramètres de connexion aux bases de données de votre ERP."
      icon={<Database aria-hidden="true" />}
    />
  );
}
