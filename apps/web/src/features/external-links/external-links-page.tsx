import { Link2 } from 'lucide-react';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';

export default function ExternalLinksPage() {
  return (
    <ComingSoon
      title="Liaisons externes"
      description="Dossiers d'import et d'export, liaisons avec les logiciels maîtres."
      icon={<Link2 aria-hidden="true" />}
    />
  );
}
