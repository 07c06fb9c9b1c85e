import { History } from 'lucide-react';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';

export default function ImportHistoryPage() {
  return (
    <ComingSoon
      title="Historique d'importation"
      description="Saisies mobiles importées dans votre ERP et leur état de traitement."
      icon={<History aria-hidden="true" />}
    />
  );
}
