import { useId } from 'react';
import type { TTerminalActivity, TTerminalView } from '@synchro/contracts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardTitle } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { displayName } from './terminals-form.ts';
import { PANEL_HEIGHT } from './terminals-layout.ts';
import { TerminalActivityLine } from './terminal-activity.tsx';

export interface ListActivity {
  terminals: readonly TTerminalActivity[];
  nowMs: number;
  zone: string;
}

function TerminalItem({
  terminal,
  selected,
  onSelect,
  activity,
}: {
  terminal: TTerminalView;
  selected: boolean;
  onSelect: () => void;
  activity: ListActivity | null;
}) {
  const n = terminal.xmlIndex + 1;
  return (
    <li>
      <button
        type="button"
        aria-current={selected ? 'true' : undefined}
        onClick={onSelect}
        className={cn(
          'grid w-full gap-1 rounded-md border border-l-4 px-3 py-2 text-left transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
          terminal.declared
            ? 'border-border border-l-primary bg-card hover:bg-muted'
            : 'border-transparent border-l-border bg-transparent text-muted-foreground hover:bg-muted',
          selected && 'border-primary border-l-primary bg-primary-soft text-foreground hover:bg-primary-soft',
        )}
      >
        <span className="flex min-w-0 items-center gap-2">
          <span
            className={cn(
              'shrink-0 rounded px-1.5 py-0.5 font-mono text-xs tabular-nums',
              terminal.declared ? 'bg-primary text-primary-foreground' : 'bg-muted text-muted-foreground',
            )}
          >
            #{n}
          </span>{' '}
          <span
            className={cn(
              'min-w-0 flex-1 text-sm break-words',
              terminal.declared ? 'font-semibold text-foreground' : 'font-medium',
            )}
          >
            {displayName(terminal.Nom)}
          </span>{' '}
          {terminal.declared ? (
            <Badge variant="success" className="shrink-0">
              Déclaré
            </Badge>
          ) : null}
        </span>
        {terminal.ID_Tablette ? (
          <span className="flex min-w-0 items-baseline gap-2 text-xs text-muted-foreground">
            <span className="w-[5.25rem] shrink-0">
              Tablette / PC<span className="sr-only">{'\u00a0'}:</span>
            </span>
            <span className="truncate font-mono text-foreground">{terminal.ID_Tablette}</span>
          </span>
        ) : null}
        {terminal.ID_Smartphone ? (
          <span className="flex min-w-0 items-baseline gap-2 text-xs text-muted-foreground">
            <span className="w-[5.25rem] shrink-0">
              Smartphone<span className="sr-only">{'\u00a0'}:</span>
            </span>
            <span className="truncate font-mono text-foreground">{terminal.ID_Smartphone}</span>
          </span>
        ) : null}
        {activity && terminal.declared ? (
          <TerminalActivityLine
            terminal={terminal}
            activity={activity.terminals}
            nowMs={activity.nowMs}
            zone={activity.zone}
          />
        ) : null}
      </button>
    </li>
  );
}

export function TerminalList({
  terminals,
  selected,
  onSelect,
  activity = null,
  activityFailed = null,
}: {
  terminals: TTerminalView[];
  selected: number | null;
  onSelect: (position: number) => void;
  /** The terminals' figures; null while they load or when they could not be read. */
  activity?: ListActivity | null;
  /** When the figures could not be read: what asks for them again. */
  activityFailed?: { retry: () => void } | null;
}) {
  const titleId = useId();
  const declared = terminals.filter((t) => t.declared).length;
  return (
    <Card
      aria-labelledby={titleId}
      className={cn('flex max-h-[28rem] min-w-0 flex-col', PANEL_HEIGHT, 'lg:max-h-none')}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 border-b border-border px-4 py-3">
        <CardTitle id={titleId}>Liste des terminaux</CardTitle>
        <p className="text-xs text-muted-foreground">
          {declared} déclaré{declared > 1 ? 's' : ''} sur {terminals.length}
        </p>
      </div>
      {activityFailed ? (
        <div className="flex flex-wrap items-center gap-2 border-b border-border px-4 py-2 text-xs text-destructive">
          <span>Impossible de charger l’activité des terminaux.</span>
          <Button variant="outline" size="sm" onClick={activityFailed.retry}>
            Réessayer
          </Button>
        </div>
      ) : activity === null && declared > 0 ? (
        <p role="status" className="border-b border-border px-4 py-2 text-xs text-muted-foreground">
          Chargement de l’activité des terminaux…
        </p>
      ) : null}
      <ul aria-labelledby={titleId} className="grid min-h-0 flex-1 content-start gap-1.5 overflow-y-auto p-2">
        {terminals.map((t, i) => (
          <TerminalItem
            key={i}
            terminal={t}
            selected={selected === i}
            onSelect={() => onSelect(i)}
            activity={activity}
          />
        ))}
      </ul>
    </Card>
  );
}
