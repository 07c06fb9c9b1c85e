import { CalendarClock } from 'lucide-react';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';

export default function PlanningPage() {
  return (
    <ComingSoon
      title="Planification des synchronisations"
      description="Jours, heures et types des synchronisations automatiques."
      icon={<CalendarClock aria-hidden="true" />}
    />
  );
}
