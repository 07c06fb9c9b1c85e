import type { ReactNode } from 'react';
import { FileDown, FilePenLine, ScrollText } from 'lucide-react';
import type { TSyncHistoryRow } from '@synchro/contracts';
import { cn } from '../../lib/cn.ts';
import { formatNumber } from '../../lib/format.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table.tsx';
import { Tooltip, TooltipContent, TooltipTrigger } from '../../components/ui/tooltip.tsx';
import { useMediaQuery } from '../../components/ui/use-media-query.ts';
import { listTime } from '../../components/history/list-time.ts';
import { StatusToggle } from './status-toggle.tsx';

export interface HistoryRowHandlers {
  onCycle: (row: TSyncHistoryRow) => void;
  onEditXml: (row: TSyncHistoryRow) => void;
  onShowLog: (row: TSyncHistoryRow) => void;
  onDownloadFile: (row: TSyncHistoryRow) => void;
}

export interface HistoryTableProps extends HistoryRowHandlers {
  rows: TSyncHistoryRow[];
  zone: string;
  /** Records whose state change is on its way. */
  pendingIds: ReadonlySet<string>;
  /** Records whose file is downloading. */
  downloadingIds: ReadonlySet<string>;
}

const COLUMNS = [
  'Traité',
  'Actions',
  "Type d'élément",
  'Référence',
  'Date/Heure Export',
  'Nb Lignes',
  'Type Traitement',
] as const;

function ActionButton({
  label,
  hint,
  onClick,
  busy = false,
  muted = false,
  children,
}: {
  label: string;
  hint: string;
  onClick: () => void;
  busy?: boolean;
  muted?: boolean;
  children: ReactNode;
}) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label={label}
          aria-busy={busy || undefined}
          className={cn(muted && 'text-muted-foreground/70')}
          onClick={() => {
            if (!busy) onClick();
          }}
        >
          {busy ? <Spinner /> : children}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{hint}</TooltipContent>
    </Tooltip>
  );
}

/** The controls and texts of one row, shared by the table and the phone cards. */
function rowCells(row: TSyncHistoryRow, props: HistoryTableProps) {
  const ref = row.RefDoc || row.IDInterne;
  return {
    status: (
      <StatusToggle
        etat={row.Etat}
        reference={row.RefDoc}
        pending={props.pendingIds.has(row.IDInterne)}
        onCycle={() => props.onCycle(row)}
      />
    ),
    actions: (
      <div className="flex items-center gap-0.5">
        <ActionButton
          label={`Modifier les données XML (${ref})`}
          hint="Modifier les données XML"
          onClick={() => props.onEditXml(row)}
        >
          <FilePenLine aria-hidden="true" />
        </ActionButton>
        <ActionButton
          label={`Log de synchronisation (${ref})`}
          hint={row.hasLog ? 'Log de synchronisation' : 'Log de synchronisation (vide)'}
          muted={!row.hasLog}
          onClick={() => props.onShowLog(row)}
        >
          <ScrollText aria-hidden="true" />
        </ActionButton>
        <ActionButton
          label={`Télécharger le fichier (${ref})`}
          hint={row.hasFile ? 'Télécharger le fichier' : 'Aucun fichier pour cet enregistrement'}
          muted={!row.hasFile}
          busy={props.downloadingIds.has(row.IDInterne)}
          onClick={() => props.onDownloadFile(row)}
        >
          <FileDown aria-hidden="true" />
        </ActionButton>
      </div>
    ),
    type: row.TypeEnreg,
    reference: row.RefDoc,
    time: listTime(row.DateHeure, props.zone),
    lines: formatNumber(row.NumLigne),
    processing: row.TypeElement,
  };
}

/** Phones: one card per record, the state and actions on top. */
function HistoryCards(props: HistoryTableProps) {
  return (
    <ul aria-label="Enregistrements importés" className="grid gap-3">
      {props.rows.map((row) => {
        const c = rowCells(row, props);
        return (
          <li
            key={row.IDInterne}
            className="grid gap-2 rounded-lg border border-border bg-card p-3 shadow-card"
          >
            <div className="flex items-center justify-between gap-2">
              {c.status}
              {c.actions}
            </div>
            <p className="min-w-0 font-medium break-all">{c.reference || '—'}</p>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-muted-foreground">Type d'élément</dt>
              <dd className="min-w-0 break-words">{c.type}</dd>
              <dt className="text-muted-foreground">Date/Heure Export</dt>
              <dd className="tabular-nums">{c.time}</dd>
              <dt className="text-muted-foreground">Nb Lignes</dt>
              <dd className="tabular-nums">{c.lines}</dd>
              <dt className="text-muted-foreground">Type Traitement</dt>
              <dd>{c.processing}</dd>
            </dl>
          </li>
        );
      })}
    </ul>
  );
}

/** The seven columns of the spec, in its order. */
export function HistoryTable(props: HistoryTableProps) {
  const compact = useMediaQuery('(max-width: 767px)');
  if (compact) return <HistoryCards {...props} />;
  return (
    <Table className="min-w-[56rem]">
      <caption className="sr-only">Enregistrements importés</caption>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          {COLUMNS.map((name) => (
            <TableHead key={name} className={cn(name === 'Nb Lignes' && 'text-right')}>
              {name}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {props.rows.map((row) => {
          const c = rowCells(row, props);
          return (
            <TableRow key={row.IDInterne}>
              <TableCell className="w-32 py-2">{c.status}</TableCell>
              <TableCell className="w-28 py-1.5">{c.actions}</TableCell>
              <TableCell>{c.type}</TableCell>
              <TableCell className="font-medium break-all">{c.reference}</TableCell>
              <TableCell className="whitespace-nowrap tabular-nums">{c.time}</TableCell>
              <TableCell className="text-right tabular-nums">{c.lines}</TableCell>
              <TableCell>{c.processing}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
