import type { ReactNode } from 'react';
import { CircleCheck, CircleX } from 'lucide-react';
import type { TConfigDiagnostic } from '@synchro/contracts';
import { Badge } from '../../components/ui/badge.tsx';
import { formatNumber } from '../../lib/format.ts';

/** Oui / Non, green or red, with an icon so that the colour is not the only cue. */
function YesNo({ value }: { value: boolean }) {
  return value ? (
    <Badge variant="success" className="px-3 py-1 text-sm">
      <CircleCheck aria-hidden="true" className="!size-4" />
      Oui
    </Badge>
  ) : (
    <Badge variant="destructive" className="px-3 py-1 text-sm">
      <CircleX aria-hidden="true" className="!size-4" />
      Non
    </Badge>
  );
}

export function DiagnosticSummary({ diagnostic }: { diagnostic: TConfigDiagnostic }) {
  const items: { label: string; value: ReactNode }[] = [
    { label: 'XML présent', value: <YesNo value={diagnostic.hasXML} /> },
    {
      label: 'Taille du XML',
      value: (
        <span className="text-xl font-semibold text-foreground tabular-nums">
          {formatNumber(diagnostic.xmlLength)}{' '}
          <span className="text-sm font-normal text-muted-foreground">
            {diagnostic.xmlLength < 2 ? 'caractère' : 'caractères'}
          </span>
        </span>
      ),
    },
    { label: 'XML valide', value: <YesNo value={diagnostic.isValid} /> },
    { label: 'Extraction possible', value: <YesNo value={diagnostic.canExtractValues} /> },
  ];
  return (
    <dl aria-label="Synthèse du diagnostic" className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
      {items.map((item) => (
        <div
          key={item.label}
          className="flex min-h-24 min-w-0 flex-col justify-between gap-3 rounded-lg border border-border bg-card p-4 shadow-card sm:p-5"
        >
          <dt className="text-sm font-medium text-muted-foreground">{item.label}</dt>
          <dd className="flex items-center">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
