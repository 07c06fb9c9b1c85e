import { useState } from 'react';
import { Link } from 'wouter';
import { Activity, ListTodo } from 'lucide-react';
import type { TActivityDay, TDashboardActivity } from '@synchro/contracts';
import { SectionCard } from '../../components/ui/section-card.tsx';
import { errorDetail } from '../../lib/api-client.ts';
import { cn } from '../../lib/cn.ts';
import { formatNumber, pluralize } from '../../lib/format.ts';
import { useDashboardActivity } from './dashboard-api.ts';

/**
 * « Activité » (the last 30 days of the installation's zone) and « À traiter » on Général
 * (docs/glance.md). Plain HTML bars, no chart library (docs/decisions.md, Activity chart): a day is
 * a link to the import history of that day, its red part a link to that day's errors; hovering or
 * focusing a day writes its figures above the chart; a table says the same to screen readers.
 */

export const HISTORY_HREF = '/import-history';
export const TRACE_HREF = '/transaction-logs';

export const dayHref = (day: string, errors = false) =>
  `${HISTORY_HREF}?day=${day}${errors ? '&errors=1' : ''}`;

/** `2025-03-30` → `30/03`, and the long form `30/03/2025`. */
const shortDay = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;
const longDay = (day: string) => `${shortDay(day)}/${day.slice(0, 4)}`;

export function dayFigures(d: TActivityDay): string {
  return [
    pluralize(d.records, 'enregistrement importé', 'enregistrements importés'),
    `${formatNumber(d.errors)} en erreur`,
    pluralize(d.transactions, 'transaction', 'transactions'),
  ].join(', ');
}

/** The scale's top: the highest figure rounded up to 1, 2 or 5 × 10ⁿ (at least 2, halved evenly). */
export function scaleTop(highest: number): number {
  if (highest <= 2) return 2;
  const power = 10 ** Math.floor(Math.log10(highest));
  const step = [1, 2, 5, 10].find((m) => m * power >= highest) ?? 10;
  return step * power;
}

/** The days given a date under the chart: every seventh from the last one back. */
const TICK_EVERY = 7;

function ActivityChart({ days }: { days: TActivityDay[] }) {
  const [shown, setShown] = useState<number>(days.length - 1);
  const top = scaleTop(Math.max(...days.map((d) => Math.max(d.records, d.transactions)), 0));
  const pct = (n: number) => `${(n / top) * 100}%`;
  const current = days[shown];
  const ticks = days
    .map((d, i) => ({ day: d.day, i }))
    .filter(({ i }) => (days.length - 1 - i) % TICK_EVERY === 0);
  return (
    <div className="min-w-0">
      <p className="mb-3 min-h-10 text-sm" data-testid="activity-figures">
        {current ? (
          <>
            <span className="font-medium">{longDay(current.day)}</span> : {dayFigures(current)}
          </>
        ) : null}
      </p>
      <div className="flex min-w-0 gap-2">
        <div
          className="relative h-40 w-8 shrink-0 text-right text-xs text-muted-foreground tabular-nums"
          aria-hidden="true"
        >
          <span className="absolute top-0 right-0 -translate-y-1/2">{formatNumber(top)}</span>
          <span className="absolute top-1/2 right-0 -translate-y-1/2">{formatNumber(top / 2)}</span>
          <span className="absolute bottom-0 right-0 translate-y-1/2">0</span>
        </div>
        <div className="relative min-w-0 flex-1">
          <div className="pointer-events-none absolute inset-x-0 top-0 border-t border-dashed border-border" />
          <div className="pointer-events-none absolute inset-x-0 top-1/2 border-t border-dashed border-border" />
          <div
            className="relative flex h-40 min-w-0 items-end gap-px overflow-hidden border-b border-border sm:gap-1"
            onMouseLeave={() => setShown(days.length - 1)}
          >
            {days.map((d, i) => (
              <div
                key={d.day}
                className={cn(
                  'relative flex h-full min-w-0 flex-1 items-end justify-center gap-px rounded-t-sm',
                  i === shown && 'bg-muted',
                )}
                onMouseEnter={() => setShown(i)}
              >
                <Link
                  href={dayHref(d.day)}
                  className="flex h-full flex-1 items-end justify-center gap-px rounded-t-sm outline-offset-1 focus-visible:outline-2 focus-visible:outline-primary"
                  aria-label={`${longDay(d.day)} : ${dayFigures(d)}. Ouvrir l’historique de ce jour`}
                  onFocus={() => setShown(i)}
                  data-day={d.day}
                >
                  <span className="relative w-1/2 max-w-3 bg-primary" style={{ height: pct(d.records) }} />
                  <span className="w-1/2 max-w-3 bg-[#7aa7b0]" style={{ height: pct(d.transactions) }} />
                </Link>
                {d.errors > 0 ? (
                  <Link
                    href={dayHref(d.day, true)}
                    className="absolute bottom-0 left-0 w-1/2 bg-destructive outline-offset-1 focus-visible:outline-2 focus-visible:outline-destructive"
                    style={{ height: `max(3px, ${pct(d.errors)})` }}
                    aria-label={`${longDay(d.day)} : ${formatNumber(d.errors)} en erreur. Ouvrir les erreurs de ce jour`}
                    onFocus={() => setShown(i)}
                    data-errors-day={d.day}
                  />
                ) : null}
              </div>
            ))}
          </div>
          <div className="relative mt-1 h-4 text-xs text-muted-foreground" aria-hidden="true">
            {ticks.map(({ day, i }) => (
              <span
                key={day}
                className={cn(
                  'absolute top-0 whitespace-nowrap',
                  i === days.length - 1 ? '-translate-x-full' : i < 2 ? '' : '-translate-x-1/2',
                )}
                style={{
                  left: i === days.length - 1 ? '100%' : `${((i + 0.5) / days.length) * 100}%`,
                }}
              >
                {shortDay(day)}
              </span>
            ))}
          </div>
        </div>
      </div>
      <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground" aria-hidden="true">
        <li className="flex items-center gap-1.5">
          <span className="size-2.5 rounded-sm bg-primary" /> Enregistrements importés
        </li>
        <li className="flex items-center gap-1.5">
          <span className="size-2.5 rounded-sm bg-destructive" /> En erreur
        </li>
        <li className="flex items-center gap-1.5">
          <span className="size-2.5 rounded-sm bg-[#7aa7b0]" /> Transactions
        </li>
      </ul>
    </div>
  );
}

/** The chart's table alternative (read by screen readers; shown on demand). */
function ActivityTable({ days, visible }: { days: TActivityDay[]; visible: boolean }) {
  return (
    <div className={visible ? 'mt-3 overflow-x-auto' : 'sr-only'}>
      <table className="w-full text-sm" data-testid="activity-table">
        <caption className="sr-only">Activité des 30 derniers jours</caption>
        <thead>
          <tr className="border-b border-border text-left text-muted-foreground">
            <th scope="col" className="py-1 font-medium">
              Jour
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Enregistrements importés
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              En erreur
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Transactions
            </th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.day} className="border-b border-border/60">
              <th scope="row" className="py-1 text-left font-normal">
                {longDay(d.day)}
              </th>
              <td className="py-1 text-right tabular-nums">{formatNumber(d.records)}</td>
              <td className="py-1 text-right tabular-nums">{formatNumber(d.errors)}</td>
              <td className="py-1 text-right tabular-nums">{formatNumber(d.transactions)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ToHandle({ toHandle }: { toHandle: TDashboardActivity['toHandle'] }) {
  const items = [
    {
      label: 'Enregistrements en erreur',
      n: toHandle.errors,
      href: `${HISTORY_HREF}?errors=1`,
      tone: 'text-destructive',
    },
    {
      label: 'Enregistrements non traités',
      n: toHandle.waiting,
      href: `${HISTORY_HREF}?waiting=1`,
      tone: 'text-foreground',
    },
  ];
  return (
    <ul className="grid gap-3 sm:grid-cols-2" aria-label="À traiter">
      {items.map((item) => (
        <li key={item.label}>
          <Link
            href={item.href}
            className="flex items-baseline justify-between gap-3 rounded-md border border-border px-4 py-3 hover:bg-muted focus-visible:outline-2 focus-visible:outline-primary"
          >
            <span className="text-sm text-muted-foreground">{item.label}</span>
            <span className={cn('text-xl font-semibold tabular-nums', item.n > 0 && item.tone)}>
              {formatNumber(item.n)}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function ActivityCards() {
  const query = useDashboardActivity();
  const [tableShown, setTableShown] = useState(false);
  if (query.isPending) {
    return (
      <SectionCard title="Activité" icon={<Activity aria-hidden="true" />}>
        <p className="text-sm text-muted-foreground">Chargement de l’activité…</p>
      </SectionCard>
    );
  }
  if (query.isError) {
    return (
      <SectionCard title="Activité" icon={<Activity aria-hidden="true" />}>
        <p className="text-sm text-destructive">
          Impossible de charger l’activité : {errorDetail(query.error, 'le serveur ne répond pas.')}
        </p>
      </SectionCard>
    );
  }
  const { days, toHandle, zone } = query.data;
  return (
    <>
      <SectionCard title="À traiter" icon={<ListTodo aria-hidden="true" />}>
        <ToHandle toHandle={toHandle} />
      </SectionCard>
      <SectionCard
        title="Activité"
        description={`Les 30 derniers jours (fuseau ${zone}). Choisissez un jour pour ouvrir son historique.`}
        icon={<Activity aria-hidden="true" />}
      >
        <ActivityChart days={days} />
        <button
          type="button"
          className="mt-3 text-sm font-medium text-primary underline-offset-2 hover:underline"
          aria-expanded={tableShown}
          onClick={() => setTableShown((v) => !v)}
        >
          {tableShown ? 'Masquer le tableau' : 'Afficher le tableau'}
        </button>
        <ActivityTable days={days} visible={tableShown} />
      </SectionCard>
    </>
  );
}
