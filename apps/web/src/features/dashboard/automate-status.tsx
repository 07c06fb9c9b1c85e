import { useEffect, useState, type ReactNode } from 'react';
import { CircleCheck, CircleOff, CircleSlash, TriangleAlert } from 'lucide-react';
import { AUTOMATE_OFFLINE_AFTER_HOURS, type TAutomateService } from '@synchro/contracts';
import { Badge } from '../../components/ui/badge.tsx';
import { formatDateTimeInZone, NBSP } from '../../lib/format.ts';
import { formatElapsed } from '../../lib/french-text.ts';

/** Seconds elapsed since `since` (ms), refreshed every 30 s so that « il y a 3 min » stays true. */
function useSecondsSince(since: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  // A view read after the last tick is as old as the server said (0 s more).
  return Math.max(0, (now - since) / 1000);
}

/**
 * The automate service as it reports itself to the console: online or offline (24 h without a
 * report, or never registered), the age of its last report, its machine and version.
 * `fetchedAt`: when the view was read (its age is the server's at that moment).
 */
export function AutomateStatus({
  service,
  fetchedAt,
  zone,
}: {
  service: TAutomateService;
  fetchedAt: number;
  zone: string;
}) {
  const sinceFetch = useSecondsSince(fetchedAt);
  if (!service.registered) {
    return (
      <StatusLine
        badge={
          <Badge variant="neutral">
            <CircleSlash aria-hidden="true" />
            Non enregistré
          </Badge>
        }
      >
        Aucun service d'automate ne s'est encore signalé à la console.
      </StatusLine>
    );
  }
  const age = formatElapsed((service.lastReportAgeSeconds ?? 0) + sinceFetch);
  const at = service.lastReportAt ? formatDateTimeInZone(service.lastReportAt, zone) : null;
  const lastReport = (
    <time dateTime={service.lastReportAt ?? undefined} title={at ?? undefined}>
      {age}
    </time>
  );
  const identity = [service.machineName, service.version ? `version${NBSP}${service.version}` : null]
    .filter(Boolean)
    .join(' · ');
  const status = (
    <StatusLine
      badge={
        service.online ? (
          <Badge variant="success">
            <CircleCheck aria-hidden="true" />
            En ligne
          </Badge>
        ) : (
          <Badge variant="destructive">
            <CircleOff aria-hidden="true" />
            Hors ligne
          </Badge>
        )
      }
    >
      {identity ? <span>{identity} · </span> : null}
      {service.online ? (
        <span>dernier signal {lastReport}</span>
      ) : (
        <span>
          aucun signal depuis plus de {AUTOMATE_OFFLINE_AFTER_HOURS}
          {NBSP}heures (dernier {lastReport})&nbsp;: les demandes lui sont tout de même envoyées.
        </span>
      )}
    </StatusLine>
  );
  if (!service.ordersRefused) return status;
  return (
    <div className="space-y-2">
      {status}
      <p className="flex items-start gap-2 rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm text-destructive">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>
          Les demandes de synchronisation ne peuvent pas lui être envoyées
          {service.address ? ` (${service.address})` : ''}. {service.ordersRefused}
        </span>
      </p>
    </div>
  );
}

function StatusLine({ badge, children }: { badge: ReactNode; children: ReactNode }) {
  return (
    <div
      role="group"
      aria-label="Service automate"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-border bg-card/70 px-3 py-2 text-sm"
    >
      <span className="font-medium text-foreground">Service automate</span>
      {badge}
      <span className="min-w-0 text-muted-foreground">{children}</span>
    </div>
  );
}
