import { FileCode2 } from 'lucide-react';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';

export default function DebugPage() {
  return (
    <ComingSoon
      title="Diagnostic XML de Configuration"
      description="Vérification et réparation du document de configuration du connecteur."
      icon={<FileCode2 aria-hidden="true" />}
    />
  );
}
