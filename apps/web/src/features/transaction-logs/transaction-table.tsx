import { Eye } from 'lucide-react';
import type { TTransactionLogRow } from '@synchro/contracts';
import { cn } from '../../lib/cn.ts';
import { Button } from '../../components/ui/button.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table.tsx';
import { useMediaQuery } from '../../components/ui/use-media-query.ts';
import { listTime } from '../../components/history/list-time.ts';
import { TransactionState } from './transaction-state.tsx';
import { TRACE_TEXT, logPreview } from './transaction-messages.ts';

export interface TransactionTableProps {
  rows: TTransactionLogRow[];
  zone: string;
  onShowDetail: (row: TTransactionLogRow) => void;
}

const COLUMNS = [
  'État',
  'Date de transaction',
  'N° Transaction',
  'Etape Sync',
  'ID Terminal',
  'Terminal',
  'Contenu du log',
  'Actions',
] as const;

function SeeMore({
  row,
  onShowDetail,
}: {
  row: TTransactionLogRow;
  onShowDetail: TransactionTableProps['onShowDetail'];
}) {
  return (
    <Button
      variant="outline"
      size="sm"
      aria-label={`${TRACE_TEXT.seeMore} (transaction ${row.NumTransaction || row.ID})`}
      onClick={() => onShowDetail(row)}
    >
      <Eye aria-hidden="true" />
      {TRACE_TEXT.seeMore}
    </Button>
  );
}

/** The log's first two lines, each kept on one line (cut with an ellipsis when too long). */
function LogCell({ row, className }: { row: TTransactionLogRow; className?: string }) {
  const lines = logPreview(row.Log, row.logTruncated).split('\n');
  return (
    <p className={cn('grid font-mono text-xs leading-relaxed text-muted-foreground', className)}>
      {lines.map((line, i) => (
        <span key={i} className="truncate">
          {line || (i === 0 ? '—' : '\u00a0')}
        </span>
      ))}
    </p>
  );
}

/** Phones: one card per transaction. */
function TransactionCards({ rows, zone, onShowDetail }: TransactionTableProps) {
  return (
    <ul aria-label="Transactions" className="grid gap-3">
      {rows.map((row) => (
        <li key={row.ID} className="grid gap-2 rounded-lg border border-border bg-card p-3 shadow-card">
          <div className="flex items-center justify-between gap-2">
            <TransactionState err={row.Err} />
            <span className="text-sm tabular-nums">{listTime(row.DateHeureTrt, zone)}</span>
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-muted-foreground">N° Transaction</dt>
            <dd className="min-w-0 break-all">{row.NumTransaction}</dd>
            <dt className="text-muted-foreground">Etape Sync</dt>
            <dd className="min-w-0 break-words">{row.TypeDoc}</dd>
            <dt className="text-muted-foreground">Terminal</dt>
            <dd className="min-w-0 break-words">
              {row.LibelleTablette}
              <span className="block font-mono text-xs break-all text-muted-foreground">
                {row.IDTablette}
              </span>
            </dd>
          </dl>
          <LogCell row={row} />
          <div className="flex justify-end">
            <SeeMore row={row} onShowDetail={onShowDetail} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The eight columns of the spec, in its order. */
export function TransactionTable(props: TransactionTableProps) {
  const compact = useMediaQuery('(max-width: 767px)');
  if (compact) return <TransactionCards {...props} />;
  const { rows, zone, onShowDetail } = props;
  return (
    <Table className="min-w-[64rem]">
      <caption className="sr-only">Transactions</caption>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          {COLUMNS.map((name) => (
            <TableHead key={name} className={cn(name === 'Actions' && 'text-right')}>
              {name}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.ID}>
            <TableCell className="w-24">
              <TransactionState err={row.Err} />
            </TableCell>
            <TableCell className="whitespace-nowrap tabular-nums">
              {listTime(row.DateHeureTrt, zone)}
            </TableCell>
            <TableCell className="tabular-nums">{row.NumTransaction}</TableCell>
            <TableCell>{row.TypeDoc}</TableCell>
            <TableCell className="font-mono text-xs whitespace-nowrap">{row.IDTablette}</TableCell>
            <TableCell>{row.LibelleTablette}</TableCell>
            <TableCell className="w-full max-w-0 min-w-52">
              <LogCell row={row} />
            </TableCell>
            <TableCell className="text-right whitespace-nowrap">
              <SeeMore row={row} onShowDetail={onShowDetail} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
