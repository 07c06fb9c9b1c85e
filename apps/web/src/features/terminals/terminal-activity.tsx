import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ArrowRightLeft } from 'lucide-react';
import {
  TERMINALS_ACTIVITY_PATH,
  TRANSACTION_LOGS_PATH,
  terminalState,
  ZTerminalsActivity,
  ZTransactionLogsPage,
  type TTerminalActivity,
  type TTerminalView,
} from '@synchro/contracts';
import { Badge } from '../../components/ui/badge.tsx';
import { SectionCard } from '../../components/ui/section-card.tsx';
import { api, errorDetail } from '../../lib/api-client.ts';
import { formatDateTimeInZone, formatNumber, pluralize } from '../../lib/format.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { queryString } from '../../components/history/list-state.ts';

/**
 * Terminaux's figures (docs/glance.md): each terminal's last exchange, its last 24 hours and its
 * state; the selected terminal's last 20 transactions with a link to the trace filtered on it.
 */

export const RECENT_TRANSACTIONS = 20;
/** The trace filtered on a terminal: on each of its ids. */
export const traceHref = (ids: readonly string[]) => `/transaction-logs${queryString({ terminal: ids })}`;

export function useTerminalsActivity() {
  return useQuery({
    queryKey: queryKeys.terminalsActivity,
    queryFn: ({ signal }) => api.get(TERMINALS_ACTIVITY_PATH, { signal, schema: ZTerminalsActivity }),
  });
}

/** The ids a terminal is seen under in the trace (its tablet / PC and its smartphone). */
const idsOf = (t: Pick<TTerminalView, 'ID_Tablette' | 'ID_Smartphone'>) =>
  [t.ID_Tablette.trim(), t.ID_Smartphone.trim()].filter((id) => id !== '');

/** A terminal's figures: the newest exchange of its ids, their last 24 hours summed. */
export function activityOf(
  terminal: Pick<TTerminalView, 'ID_Tablette' | 'ID_Smartphone'>,
  all: readonly TTerminalActivity[],
): { lastExchangeAt: string | null; transactions24h: number; errors24h: number } {
  const mine = all.filter((a) => idsOf(terminal).includes(a.terminalId));
  const last = mine
    .map((a) => a.lastExchangeAt)
    .filter((v): v is string => v !== null)
    .sort()
    .at(-1);
  return {
    lastExchangeAt: last ?? null,
    transactions24h: mine.reduce((n, a) => n + a.transactions24h, 0),
    errors24h: mine.reduce((n, a) => n + a.errors24h, 0),
  };
}

/** « 5 minutes », « 3 heures », « 2 jours »: how long ago, in the largest whole unit. */
export function durationText(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 1) return 'moins d’une minute';
  if (minutes < 60) return pluralize(minutes, 'minute', 'minutes');
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return pluralize(hours, 'heure', 'heures');
  return pluralize(Math.floor(hours / 24), 'jour', 'jours');
}

/**
 * « Dernier échange il y a 5 minutes, le 31/03/2025 11:00 (UTC+2) »: how long ago, and the exact
 * time in the installation's zone as visible text (a `<time>`), for every reader, keyboard and
 * screen reader included (the line sits inside the terminal's button, where nothing can take the
 * focus: no tooltip there).
 */
export function LastExchange({ at, nowMs, zone }: { at: string; nowMs: number; zone: string }) {
  const exact = formatDateTimeInZone(at, zone);
  return (
    <span>
      Dernier échange il y a {durationText(nowMs - Date.parse(at))}
      {exact ? (
        <>
          ,{' '}
          <time dateTime={at} className="whitespace-nowrap tabular-nums">
            le {exact}
          </time>
        </>
      ) : null}
    </span>
  );
}

export function TerminalActivityLine({
  terminal,
  activity,
  nowMs,
  zone,
}: {
  terminal: TTerminalView;
  activity: readonly TTerminalActivity[];
  nowMs: number;
  zone: string;
}) {
  const figures = activityOf(terminal, activity);
  const state = terminalState(figures.lastExchangeAt, nowMs);
  return (
    <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
      {state.kind === 'active' ? (
        <Badge variant="success">Actif</Badge>
      ) : state.kind === 'silent' ? (
        <Badge variant="warning">Silencieux depuis {durationText(nowMs - state.sinceMs)}</Badge>
      ) : (
        <Badge variant="neutral">Jamais vu</Badge>
      )}
      {figures.lastExchangeAt ? <LastExchange at={figures.lastExchangeAt} nowMs={nowMs} zone={zone} /> : null}
      <span className="w-full">
        24 h : {pluralize(figures.transactions24h, 'transaction', 'transactions')},{' '}
        <span className={figures.errors24h > 0 ? 'font-medium text-destructive' : undefined}>
          {formatNumber(figures.errors24h)} en erreur
        </span>
      </span>
    </span>
  );
}

/**
 * The selected terminal's last 20 transactions (GET /api/transaction-logs?terminal=…, once per id
 * of the terminal: its tablet / PC and its smartphone).
 */
export function RecentTransactions({ terminal }: { terminal: TTerminalView }) {
  const ids = idsOf(terminal);
  const url = `${TRANSACTION_LOGS_PATH}${queryString({ terminal: ids, pageSize: RECENT_TRANSACTIONS })}`;
  const query = useQuery({
    queryKey: queryKeys.transactionLogsPage({ url }),
    queryFn: ({ signal }) => api.get(url, { signal, schema: ZTransactionLogsPage }),
    enabled: ids.length > 0,
  });
  const title = 'Dernières transactions du terminal';
  const icon = <ArrowRightLeft aria-hidden="true" />;
  if (ids.length === 0) {
    return (
      <SectionCard title={title} icon={icon}>
        <p className="text-sm text-muted-foreground">
          Ce terminal n’a pas d’identifiant : aucune transaction.
        </p>
      </SectionCard>
    );
  }
  const named = ids.join(' et ');
  const several = ids.length > 1;
  const page = query.data;
  return (
    <SectionCard
      title={title}
      description={`Les ${formatNumber(RECENT_TRANSACTIONS)} plus récentes de ${named}.`}
      icon={icon}
    >
      {query.isError ? (
        <p className="text-sm text-destructive">{errorDetail(query.error, 'Le serveur ne répond pas.')}</p>
      ) : !page ? (
        <p className="text-sm text-muted-foreground">Chargement des transactions…</p>
      ) : page.logs.length === 0 ? (
        <p className="text-sm text-muted-foreground">Aucune transaction pour ce terminal.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm" aria-label={`Dernières transactions de ${named}`}>
            <thead>
              <tr className="border-b border-border text-left text-muted-foreground">
                <th scope="col" className="py-1.5 pr-3 font-medium">
                  Date/Heure
                </th>
                <th scope="col" className="py-1.5 pr-3 font-medium">
                  Type
                </th>
                <th scope="col" className="py-1.5 pr-3 font-medium">
                  Référence
                </th>
                {several ? (
                  <th scope="col" className="py-1.5 pr-3 font-medium">
                    ID Terminal
                  </th>
                ) : null}
                <th scope="col" className="py-1.5 font-medium">
                  État
                </th>
              </tr>
            </thead>
            <tbody>
              {page.logs.map((log) => (
                <tr key={log.ID} className="border-b border-border/60">
                  <td className="py-1.5 pr-3 whitespace-nowrap tabular-nums">
                    {formatDateTimeInZone(log.DateHeureTrt, page.displayTimeZone.zone)}
                  </td>
                  <td className="py-1.5 pr-3">{log.TypeDoc}</td>
                  <td className="py-1.5 pr-3 break-all">{log.RefDoc}</td>
                  {several ? <td className="py-1.5 pr-3 font-mono break-all">{log.IDTablette}</td> : null}
                  <td className="py-1.5">
                    {log.Err === 1 ? (
                      <Badge variant="destructive">Erreur</Badge>
                    ) : (
                      <Badge variant="success">OK</Badge>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Link
        href={traceHref(ids)}
        className="mt-3 inline-block text-sm font-medium text-primary underline-offset-2 hover:underline"
      >
        Voir toutes ses transactions dans la trace
      </Link>
    </SectionCard>
  );
}
