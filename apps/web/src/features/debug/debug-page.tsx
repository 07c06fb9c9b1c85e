import { useRef, useState, type ReactNode } from 'react';
import {
  CircleAlert,
  CircleCheck,
  CircleX,
  FileCode2,
  FileWarning,
  History,
  ListChecks,
  RefreshCw,
  TableProperties,
  TriangleAlert,
  Wrench,
} from 'lucide-react';
import type {
  TConfigDiagnostic,
  TDiagnosticIssue,
  TProblematicLine,
  TRepairResponse,
} from '@synchro/contracts';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '../../components/ui/alert-dialog.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { LoadingState } from '../../components/ui/spinner.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { Tooltip, TooltipContent, TooltipTrigger } from '../../components/ui/tooltip.tsx';
import { ApiError, errorDetail } from '../../lib/api-client.ts';
import { cn } from '../../lib/cn.ts';
import { NBSP, NNBSP, formatNumber, pluralize } from '../../lib/format.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useAuth } from '../../state/auth/auth-context.ts';
import { useRepairXml, useXmlStatus } from './debug-api.ts';
import { NOT_COMMUNICATED_LABEL, frenchSpacing, readExtractedValue } from './debug-format.ts';

const TITLE = 'Diagnostic XML de Configuration';
export const REPAIR_LABEL = 'Réparer le XML automatiquement';

/** "Label : " with the non-breaking space French typography puts before a colon. */
const colon = (label: string) => `${label}${NBSP}:`;

function SectionCard({
  title,
  description,
  icon,
  tone = 'primary',
  children,
  className,
  labelledBy,
  focusableTitle = false,
}: {
  title: string;
  description?: ReactNode;
  icon: ReactNode;
  tone?: 'primary' | 'destructive' | 'success';
  children: ReactNode;
  className?: string;
  labelledBy: string;
  /** The title can take focus from script (tabIndex -1), e.g. to announce a result. */
  focusableTitle?: boolean;
}) {
  return (
    <Card className={className} aria-labelledby={labelledBy}>
      <CardHeader className="flex-row items-start gap-3">
        <div
          className={cn(
            'grid size-9 shrink-0 place-content-center rounded-md [&_svg]:size-[1.125rem]',
            tone === 'primary' && 'bg-primary-soft text-primary',
            tone === 'destructive' && 'bg-destructive-soft text-destructive',
            tone === 'success' && 'bg-success-soft text-success-soft-foreground',
          )}
        >
          {icon}
        </div>
        <div className="grid min-w-0 gap-0.5">
          <CardTitle
            id={labelledBy}
            tabIndex={focusableTitle ? -1 : undefined}
            className={focusableTitle ? 'scroll-mt-24 outline-none' : undefined}
          >
            {title}
          </CardTitle>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </div>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

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

function Summary({ diagnostic }: { diagnostic: TConfigDiagnostic }) {
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

function ParseError({ diagnostic }: { diagnostic: TConfigDiagnostic }) {
  return (
    <SectionCard
      title="Erreur d'analyse du XML"
      icon={<FileWarning aria-hidden="true" />}
      tone="destructive"
      labelledBy="debug-parse-error"
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

function IssueItem({ issue }: { issue: TDiagnosticIssue }) {
  const details: string[] = [];
  if (issue.line !== undefined) details.push(`Ligne ${formatNumber(issue.line)}`);
  if (issue.count !== undefined) details.push(pluralize(issue.count, 'occurrence', 'occurrences'));
  return (
    <li className="grid gap-1.5 py-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        {issue.severity === 'error' ? (
          <Badge variant="destructive">
            <CircleX aria-hidden="true" />
            Erreur
          </Badge>
        ) : (
          <Badge variant="warning">
            <TriangleAlert aria-hidden="true" />
            Avertissement
          </Badge>
        )}
        {details.length ? (
          <span className="text-xs text-muted-foreground tabular-nums">{details.join(' · ')}</span>
        ) : null}
      </div>
      <p className="text-sm break-words text-foreground">{frenchSpacing(issue.message)}</p>
    </li>
  );
}

function Issues({ issues, className }: { issues: TDiagnosticIssue[]; className?: string }) {
  const sorted = [
    ...issues.filter((issue) => issue.severity === 'error'),
    ...issues.filter((issue) => issue.severity !== 'error'),
  ];
  const errors = issues.filter((issue) => issue.severity === 'error').length;
  const warnings = issues.length - errors;
  return (
    <SectionCard
      title="Problèmes détectés"
      description={
        issues.length
          ? `${pluralize(errors, 'erreur', 'erreurs')}, ${pluralize(warnings, 'avertissement', 'avertissements')}`
          : undefined
      }
      icon={<ListChecks aria-hidden="true" />}
      labelledBy="debug-issues"
      className={className}
    >
      {sorted.length ? (
        <ul aria-label="Problèmes détectés" className="-mt-2 divide-y divide-border">
          {sorted.map((issue, index) => (
            <IssueItem key={`${issue.code}-${issue.line ?? ''}-${index}`} issue={issue} />
          ))}
        </ul>
      ) : (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <CircleCheck aria-hidden="true" className="size-4 text-success" />
          Aucun problème détecté.
        </p>
      )}
    </SectionCard>
  );
}

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

function ExtractionResults({ results, className }: { results: Record<string, string>; className?: string }) {
  const entries = Object.entries(results);
  return (
    <SectionCard
      title="Valeurs extraites"
      description="Champs clés lus dans le document par le serveur"
      icon={<TableProperties aria-hidden="true" />}
      labelledBy="debug-extraction"
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

function changesText(count: number): string {
  if (count === 0) return 'Aucune modification nécessaire';
  return count === 1 ? '1 modification effectuée' : `${formatNumber(count)} modifications effectuées`;
}

function RepairPanel({
  showButton,
  onRepaired,
}: {
  showButton: boolean;
  onRepaired: (r: TRepairResponse) => void;
}) {
  const repair = useRepairXml();
  const [open, setOpen] = useState(false);
  /** After a repair, focus goes to its result (the button may be gone with the faults). */
  const focusResult = useRef(false);

  const run = () => {
    repair.mutate(undefined, {
      onSuccess: (result) => {
        focusResult.current = true;
        setOpen(false);
        onRepaired(result);
        toast({
          title: result.changes.length ? 'XML réparé' : 'Aucune réparation nécessaire',
          description: result.changes.length
            ? `${changesText(result.changes.length)}. Sauvegarde${NBSP}: version ${result.backupVersion}.`
            : 'Le document ne contenait rien à réparer.',
        });
      },
      onError: (error) => {
        setOpen(false);
        toast({
          title: 'Réparation impossible',
          description: frenchSpacing(
            errorDetail(
              error,
              error instanceof ApiError && error.status === 422
                ? 'Le document ne peut pas être réparé automatiquement.'
                : 'La réparation a échoué.',
            ),
          ),
          variant: 'destructive',
        });
      },
    });
  };

  if (!showButton) return null;
  return (
    <Card
      aria-labelledby="debug-repair"
      className="border-primary/25 bg-gradient-to-br from-card to-primary-soft/60"
    >
      <div className="flex flex-col gap-4 p-5 sm:p-6 lg:flex-row lg:items-center lg:justify-between">
        <div className="flex items-start gap-3">
          <div className="grid size-9 shrink-0 place-content-center rounded-md bg-primary text-primary-foreground [&_svg]:size-[1.125rem]">
            <Wrench aria-hidden="true" />
          </div>
          <div className="grid gap-1">
            <CardTitle id="debug-repair">Réparation automatique</CardTitle>
            <CardDescription id="debug-repair-note" className="max-w-2xl">
              La réparation tente de corriger les erreurs courantes (caractères interdits,{' '}
              {`«${NBSP}&${NBSP}»`} isolés, entités échappées deux fois, balises mal fermées, sections
              manquantes). Une sauvegarde de la configuration est faite avant toute modification.
            </CardDescription>
          </div>
        </div>
        <AlertDialog
          open={open}
          onOpenChange={(next) => {
            if (!repair.isPending) setOpen(next);
          }}
        >
          <AlertDialogTrigger asChild>
            <Button className="lg:shrink-0" aria-describedby="debug-repair-note" busy={repair.isPending}>
              {repair.isPending ? null : <Wrench aria-hidden="true" />}
              {repair.isPending ? 'Réparation en cours…' : REPAIR_LABEL}
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent
            onCloseAutoFocus={(event) => {
              if (!focusResult.current) return;
              focusResult.current = false;
              const target = document.getElementById('debug-repair-result');
              if (target) {
                event.preventDefault();
                target.focus();
              }
            }}
          >
            <AlertDialogHeader>
              <AlertDialogTitle>{`Réparer le XML${NNBSP}?`}</AlertDialogTitle>
              <AlertDialogDescription>
                Le document de configuration va être corrigé automatiquement. La version actuelle est d'abord
                sauvegardée dans l'historique des versions{NNBSP}; si le document ne peut pas être réparé sans
                deviner, rien n'est modifié.
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel disabled={repair.isPending}>Annuler</AlertDialogCancel>
              <AlertDialogAction
                disabled={repair.isPending}
                aria-busy={repair.isPending || undefined}
                onClick={(event) => {
                  // Stay open while the request runs; closed on its answer.
                  event.preventDefault();
                  run();
                }}
              >
                {repair.isPending ? 'Réparation en cours…' : 'Réparer'}
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </div>
    </Card>
  );
}

function RepairResult({ result }: { result: TRepairResponse }) {
  const count = result.changes.length;
  return (
    <SectionCard
      title={count ? 'Réparation effectuée' : 'Aucune réparation nécessaire'}
      description={
        count ? (
          <>
            {changesText(count)}. Nouvelle version{NBSP}: {result.version}.
          </>
        ) : (
          `Le document ne contenait rien à réparer${NNBSP}; aucune version n'a été créée.`
        )
      }
      icon={<History aria-hidden="true" />}
      tone="success"
      labelledBy="debug-repair-result"
      focusableTitle
      className="border-success/30"
    >
      <div className="grid gap-3">
        <p className="text-sm font-medium text-foreground">
          Sauvegarde{NBSP}: version {result.backupVersion}
        </p>
        {count ? (
          <ul aria-label="Modifications effectuées" className="grid gap-2">
            {result.changes.map((change, index) => (
              <li
                key={`${change.code}-${change.line ?? ''}-${index}`}
                className="flex items-start gap-2 rounded-md border border-border bg-muted/40 px-3 py-2 text-sm"
              >
                <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
                <span className="min-w-0 break-words">
                  {frenchSpacing(change.message)}
                  {change.line !== undefined ? (
                    <span className="text-muted-foreground"> (ligne {formatNumber(change.line)})</span>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </SectionCard>
  );
}

export function DiagnosticView({
  diagnostic,
  repairResult,
  onRepaired,
}: {
  diagnostic: TConfigDiagnostic;
  repairResult: TRepairResponse | null;
  onRepaired: (result: TRepairResponse) => void;
}) {
  // Shown when the document is invalid, and also when it is valid but has faults the repair
  // handles (double escaping, encoding declaration…): the server answers "nothing to change"
  // (empty `changes`, no new version) when none of them can be fixed.
  const showRepair = diagnostic.hasXML && (!diagnostic.isValid || diagnostic.issues.length > 0);
  const showParseError =
    !diagnostic.isValid && (diagnostic.parseError !== null || diagnostic.problematicContent.length > 0);
  return (
    <div className="grid grid-cols-1 gap-6">
      <Summary diagnostic={diagnostic} />
      <RepairPanel showButton={showRepair} onRepaired={onRepaired} />
      {repairResult ? <RepairResult result={repairResult} /> : null}
      {showParseError ? <ParseError diagnostic={diagnostic} /> : null}
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-12">
        <Issues issues={diagnostic.issues} className="xl:col-span-5 xl:self-start" />
        <ExtractionResults results={diagnostic.extractionResults} className="xl:col-span-7" />
      </div>
    </div>
  );
}

export default function DebugPage() {
  usePageTitle(TITLE);
  const { user } = useAuth();
  const query = useXmlStatus();
  const [repairResult, setRepairResult] = useState<TRepairResponse | null>(null);
  const syncId = user?.IDSynchro;

  const refresh = (
    <Button
      variant="outline"
      busy={query.isFetching && !query.isPending}
      disabled={query.isPending}
      onClick={() => void query.refetch()}
    >
      {query.isFetching && !query.isPending ? null : <RefreshCw aria-hidden="true" />}
      Actualiser
    </Button>
  );
  const header = (
    <PageHeader
      title={TITLE}
      description={
        syncId ? (
          <>
            Document de configuration du connecteur de l'installation{' '}
            <span className="font-mono font-medium text-foreground">{syncId}</span>.
          </>
        ) : (
          'Document de configuration du connecteur.'
        )
      }
      actions={refresh}
    />
  );

  if (query.isPending) {
    return (
      <>
        {header}
        <LoadingState label="Chargement du diagnostic…" />
      </>
    );
  }
  if (query.isError) {
    return (
      <>
        {header}
        <EmptyState title="Impossible de charger le diagnostic" icon={<FileCode2 aria-hidden="true" />}>
          <p>{errorDetail(query.error, 'Erreur inconnue')}</p>
          <Button variant="outline" className="mt-4" onClick={() => void query.refetch()}>
            Réessayer
          </Button>
        </EmptyState>
      </>
    );
  }
  return (
    <>
      {header}
      <DiagnosticView diagnostic={query.data} repairResult={repairResult} onRepaired={setRepairResult} />
    </>
  );
}
