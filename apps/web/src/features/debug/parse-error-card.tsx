import { FileWarning, TriangleAlert } from 'lucide-react';
import type { TConfigDiagnostic, TProblematicLine } from '@synchro/contracts';
import { SectionCard } from '../../components/ui/section-card.tsx';
import { cn } from '../../lib/cn.ts';
import { NBSP, formatNumber } from '../../lib/format.ts';
import { frenchSpacing } from './debug-format.ts';

/** "Label : " with the non-breaking space French typography puts before a colon. */
const colon = (label: string) => `${label}${NBSP}:`;

/** The lines around the parse error, numbered, the faulty one marked by an icon, a text and a colour. */
function ContextLines({ lines, line }: { lines: TProblematicLine[]; line: number | null }) {
  const width = String(lines.at(-1)?.lineNumber ?? 1).length;
  return (
    <div
      role="region"
      aria-label={line === null ? 'Contexte' : `Contexte de la ligne ${line}`}
      // Focusable so that a keyboard user can scroll a long line sideways.
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      className="overflow-x-auto rounded-md border border-[#1e3447] bg-[#0f1c2b] py-2 font-mono text-[0.8125rem] leading-6 text-[#dbe4ec] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      <ol className="min-w-max">
        {lines.map((entry) => (
          <li
            key={entry.lineNumber}
            data-problematic={entry.isProblematic || undefined}
            aria-current={entry.isProblematic ? 'true' : undefined}
            className={cn(
              'flex border-l-4 border-transparent pr-4',
              entry.isProblematic && 'border-[#f87171] bg-[#7f1d1d]/55 text-white',
            )}
          >
            <span
              className={cn(
                'flex shrink-0 items-center pr-3 pl-1.5 text-[#8fa3b5] tabular-nums select-none',
                entry.isProblematic && 'font-semibold text-[#fecaca]',
              )}
            >
              <span className="flex w-4 justify-center">
                {entry.isProblematic ? (
                  <TriangleAlert aria-hidden="true" className="size-3.5 text-[#fca5a5]" />
                ) : null}
              </span>
              <span className="sr-only">{entry.isProblematic ? 'Ligne en erreur ' : 'Ligne '}</span>
              <span className="text-right" style={{ minWidth: `${width + 1}ch` }}>
                {entry.lineNumber}
              </span>
              <span className="sr-only">{`${NBSP}:`}</span>
            </span>
            <code className="border-l border-[#2b4358] pl-3 whitespace-pre">{entry.content || ' '}</code>
          </li>
        ))}
      </ol>
    </div>
  );
}

export function ParseError({ diagnostic }: { diagnostic: TConfigDiagnostic }) {
  return (
    <SectionCard
      title="Erreur d'analyse du XML"
      icon={<FileWarning aria-hidden="true" />}
      tone="destructive"
      titleId="debug-parse-error"
      className="border-destructive/30"
    >
      <div className="grid grid-cols-1 gap-4">
        <dl className="grid gap-3 text-sm sm:grid-cols-[auto_minmax(0,1fr)] sm:gap-x-6">
          <dt className="text-muted-foreground">{colon('Erreur')}</dt>
          <dd className="font-medium break-words text-destructive">
            {frenchSpacing(diagnostic.parseError ?? 'Le document ne peut pas être lu.')}
          </dd>
          {diagnostic.problematicLine !== null ? (
            <>
              <dt className="text-muted-foreground">{colon('Ligne en cause')}</dt>
              <dd className="font-medium text-foreground tabular-nums">
                {formatNumber(diagnostic.problematicLine)}
              </dd>
            </>
          ) : null}
        </dl>
        {diagnostic.problematicContent.length ? (
          <div className="grid grid-cols-1 gap-2">
            <p className="text-sm text-muted-foreground">
              Lignes autour de l'erreur, la ligne en cause est marquée d'un triangle et surlignée.
            </p>
            <ContextLines lines={diagnostic.problematicContent} line={diagnostic.problematicLine} />
          </div>
        ) : null}
      </div>
    </SectionCard>
  );
}
