import { CalendarDays } from 'lucide-react';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';

export default function ExternalCalendarsPage() {
  return (
    <ComingSoon
      title="Agendas externes"
      description="Correspondance entre les salariés et leurs agendas externes."
      icon={<CalendarDays aria-hidden="true" />}
    />
  );
}
