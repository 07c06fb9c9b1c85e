import { Info } from 'lucide-react';
import { Link } from 'wouter';
import type { TDisplayTimeZone } from '@synchro/contracts';
import { formatUtcOffset } from '../../lib/format.ts';
import { Badge } from '../ui/badge.tsx';

/**
 * The notice of both history screens: times are shown in the local zone, the one chosen in
 * Planification, with its offset from UTC (docs/spec-notes.md, Import history and transaction trace).
 */
export function TimeZoneNotice({ displayTimeZone }: { displayTimeZone: TDisplayTimeZone | undefined }) {
  return (
    <div
      role="note"
      aria-label="Fuseau horaire"
      className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border border-primary/20 bg-primary-soft px-4 py-3 text-sm text-primary-soft-foreground"
    >
      <Info aria-hidden="true" className="size-4 shrink-0" />
      <p className="min-w-0 flex-1 basis-64">
        Les heures sont affichées dans le fuseau horaire local
        {displayTimeZone ? (
          <>
            {' '}
            (<span className="font-medium">{displayTimeZone.zone}</span>)
          </>
        ) : null}
        , modifiable dans{' '}
        <Link
          href="/planning"
          className="font-medium underline underline-offset-2 hover:text-primary-hover focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          Planification
        </Link>
        .
      </p>
      {displayTimeZone ? (
        <Badge variant="primary" className="border-primary/30 bg-card">
          <span className="sr-only">Décalage horaire&nbsp;: </span>
          {formatUtcOffset(displayTimeZone.offsetMinutes)}
        </Badge>
      ) : null}
    </div>
  );
}
