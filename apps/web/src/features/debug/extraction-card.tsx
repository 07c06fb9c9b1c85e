import { CircleAlert, TableProperties } from 'lucide-react';
import { Badge } from '../../components/ui/badge.tsx';
import { SectionCard } from '../../components/ui/section-card.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table.tsx';
import { Tooltip, TooltipContent, TooltipTrigger } from '../../components/ui/tooltip.tsx';
import { cn } from '../../lib/cn.ts';
import { NOT_COMMUNICATED_LABEL, readExtractedValue } from './debug-format.ts';

/** A cut value: focusable, its accessible name and tooltip are the full text. */
function CutValue({ text, shown }: { text: string; shown: string }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button
          type="button"
          aria-label={text}
          className="cursor-help rounded-sm text-left [overflow-wrap:anywhere] underline decoration-muted-foreground decoration-dotted underline-offset-4 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          {shown}
        </button>
      </TooltipTrigger>
      <TooltipContent
        collisionPadding={8}
        className="max-w-[min(28rem,calc(100vw-1rem))] font-mono text-xs break-all"
      >
        {text}
      </TooltipContent>
    </Tooltip>
  );
}

function ValueCell({ text }: { text: string }) {
  const value = readExtractedValue(text);
  if (value.kind === 'not-communicated') {
    return <span className="text-muted-foreground italic">{NOT_COMMUNICATED_LABEL}</span>;
  }
  const shown = value.cut ? (
    <CutValue text={value.text} shown={value.shown} />
  ) : (
    <span className="[overflow-wrap:anywhere]">{value.text}</span>
  );
  if (value.kind === 'error') {
    return (
      <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-destructive">
        <Badge variant="destructive">
          <CircleAlert aria-hidden="true" />
          Erreur de lecture
        </Badge>
        {shown}
      </span>
    );
  }
  return shown;
}

export function ExtractionResults({
  results,
  className,
}: {
  results: Record<string, string>;
  className?: string;
}) {
  const entries = Object.entries(results);
  return (
    <SectionCard
      title="Valeurs extraites"
      description="Champs clés lus dans le document par le serveur"
      icon={<TableProperties aria-hidden="true" />}
      titleId="debug-extraction"
      className={className}
    >
      {entries.length ? (
        <Table aria-labelledby="debug-extraction">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead className="w-px max-sm:px-2">Nom</TableHead>
              <TableHead className="max-sm:px-2">Valeur</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {entries.map(([name, text]) => {
              const flagged = text.startsWith('Error:');
              return (
                <TableRow key={name} className={cn(flagged && 'bg-destructive-soft/40')}>
                  <TableCell className="font-mono text-[0.8125rem] whitespace-nowrap text-foreground max-sm:px-2 max-sm:text-xs">
                    {name}
                  </TableCell>
                  <TableCell className="max-sm:px-2">
                    <ValueCell text={text} />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      ) : (
        <p className="text-sm text-muted-foreground">Aucune valeur n'a pu être extraite du document.</p>
      )}
    </SectionCard>
  );
}
