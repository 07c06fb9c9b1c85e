import { ScrollText } from 'lucide-react';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';

export default function TransactionLogsPage() {
  return (
    <ComingSoon
      title="Trace des transactions"
      description="Échanges traités par le connecteur pour chaque terminal."
      icon={<ScrollText aria-hidden="true" />}
    />
  );
}
