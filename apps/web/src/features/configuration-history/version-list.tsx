import { Eye, Plug, RotateCcw } from 'lucide-react';
import { HISTORY_SECTIONS, type TConfigVersionRow, type TVersionAuthor } from '@synchro/contracts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { formatDateTimeInZone } from '../../lib/format.ts';
import { HISTORY_TEXT, authorLabel, foldLabel } from './history-text.ts';

export interface VersionListProps {
  versions: TConfigVersionRow[];
  zone: string;
  onShowChanges: (row: TConfigVersionRow) => void;
  onRestore: (row: TConfigVersionRow) => void;
  onShowConnector: () => void;
}

const AUTHOR_BADGE: Record<TVersionAuthor, 'primary' | 'neutral' | 'warning' | 'success'> = {
  user: 'primary',
  connector: 'neutral',
  repair: 'warning',
  restore: 'success',
  admin: 'neutral',
};

const when = (iso: string, zone: string) => formatDateTimeInZone(iso, zone, true, false) ?? '—';

function Fold({ row, zone, onShow }: { row: TConfigVersionRow; zone: string; onShow: () => void }) {
  const fold = row.connectorAfter;
  if (!fold) return null;
  return (
    <div
      role="note"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-dashed border-border bg-muted/40 px-4 py-2 text-sm text-muted-foreground"
    >
      <Plug aria-hidden="true" className="size-4 shrink-0" />
      <span className="font-medium text-secondary-foreground">{foldLabel(fold.count)}</span>
      <span>
        du {when(fold.from, zone)} au {when(fold.to, zone)}
      </span>
      <Button variant="link" size="sm" className="ml-auto h-auto p-0" onClick={onShow}>
        Afficher
      </Button>
    </div>
  );
}

/** The versions, newest first, each a card; the connector's updates folded between them. */
export function VersionList({ versions, zone, onShowChanges, onRestore, onShowConnector }: VersionListProps) {
  return (
    <ol aria-label="Versions de la configuration" className="grid gap-3">
      {versions.map((row) => (
        <li key={row.version} className="grid gap-3">
          <Fold row={row} zone={zone} onShow={onShowConnector} />
          <article
            aria-labelledby={`version-${row.version}`}
            className="grid gap-3 rounded-lg border border-border bg-card p-4 shadow-card sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start"
          >
            <div className="grid min-w-0 gap-2">
              <div className="flex flex-wrap items-center gap-2">
                <h2 id={`version-${row.version}`} className="text-base font-semibold">
                  Version {row.version}
                </h2>
                <Badge variant={AUTHOR_BADGE[row.author]}>{authorLabel(row)}</Badge>
                {row.current ? <Badge variant="success">{HISTORY_TEXT.current}</Badge> : null}
                <span className="text-sm text-muted-foreground tabular-nums">{when(row.at, zone)}</span>
              </div>
              {row.sections.length > 0 ? (
                <ul aria-label="Sections modifiées" className="flex flex-wrap gap-1.5">
                  {row.sections.map((s) => (
                    <li key={s}>
                      <Badge variant="neutral">{HISTORY_SECTIONS[s]}</Badge>
                    </li>
                  ))}
                </ul>
              ) : null}
              {row.summary.length > 0 ? (
                <ul className="grid gap-0.5 text-sm">
                  {row.summary.map((line) => (
                    <li key={line} className="break-words">
                      {line}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-muted-foreground">
                  {row.author === 'admin'
                    ? 'Configuration de départ.'
                    : 'Aucune section de la console modifiée.'}
                </p>
              )}
            </div>
            {row.restorable ? (
              <div className="flex flex-wrap gap-2 sm:justify-end">
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`${HISTORY_TEXT.seeChanges} de la version ${row.version}`}
                  onClick={() => onShowChanges(row)}
                >
                  <Eye aria-hidden="true" />
                  {HISTORY_TEXT.seeChanges}
                </Button>
                {row.current ? null : (
                  <Button
                    variant="secondary"
                    size="sm"
                    aria-label={`${HISTORY_TEXT.restore} la version ${row.version}`}
                    onClick={() => onRestore(row)}
                  >
                    <RotateCcw aria-hidden="true" />
                    {HISTORY_TEXT.restore}
                  </Button>
                )}
              </div>
            ) : null}
          </article>
        </li>
      ))}
    </ol>
  );
}
