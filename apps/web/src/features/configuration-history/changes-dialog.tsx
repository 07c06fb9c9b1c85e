import { useState } from 'react';
import { Code } from 'lucide-react';
import type { TConfigRawDiff, TFieldChange, THistorySection, TSectionChanges } from '@synchro/contracts';
import { Button } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { ErrorState } from '../../components/ui/error-state.tsx';
import { LoadingState } from '../../components/ui/spinner.tsx';
import { errorDetail } from '../../lib/api-client.ts';
import { cn } from '../../lib/cn.ts';
import { useRawDiff, useVersionChanges, type Against } from './config-history-api.ts';

export interface ChangesDialogProps {
  /** The version whose changes are shown; null: closed. */
  version: number | null;
  onClose: () => void;
}

const EMPTY = '(vide)';

function Value({ value }: { value: string | null }) {
  if (value === null || value === '') return <span className="text-muted-foreground italic">{EMPTY}</span>;
  return <span className="whitespace-pre-wrap [overflow-wrap:anywhere]">{value}</span>;
}

/** « Mot de passe modifié » / « inchangé » (« Clé … » for the geocoding key): never the value. */
function secretText(field: TFieldChange): string {
  const noun = /mot de passe/i.test(field.label) ? 'Mot de passe' : 'Clé';
  const e = noun === 'Clé' ? 'e' : '';
  return field.changed ? `${noun} modifié${e}` : `${noun} inchangé${e}`;
}

function FieldRow({ field }: { field: TFieldChange }) {
  if (field.secret) {
    return (
      <tr className="border-t border-border align-top">
        <th scope="row" className="py-2 pr-3 text-left font-medium [overflow-wrap:anywhere]">
          {field.label}
        </th>
        <td colSpan={2} className="py-2">
          <span className={field.changed ? 'font-medium' : 'text-muted-foreground'}>{secretText(field)}</span>
        </td>
      </tr>
    );
  }
  return (
    <tr className="border-t border-border align-top">
      <th scope="row" className="py-2 pr-3 text-left font-medium [overflow-wrap:anywhere]">
        {field.label}
      </th>
      <td className="py-2 pr-3">
        <Value value={field.before} />
      </td>
      <td className="py-2">
        <Value value={field.after} />
      </td>
    </tr>
  );
}

function RawDiffView({ diff }: { diff: TConfigRawDiff }) {
  if (diff.tooLarge)
    return (
      <p className="text-sm text-muted-foreground">Trop de différences pour les comparer ligne à ligne.</p>
    );
  if (diff.lines.length === 0) return <p className="text-sm text-muted-foreground">Texte identique.</p>;
  return (
    <pre
      // Scrolls when long: a focusable region, so that the keyboard scrolls it (axe
      // scrollable-region-focusable), which the rule below does not know of.
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      role="region"
      aria-label="Différences du XML"
      className="max-h-80 overflow-auto rounded-md border border-border bg-muted/40 p-2 font-mono text-xs leading-relaxed"
    >
      {diff.lines.map((line, i) =>
        'skipped' in line ? (
          <div key={i} className="text-muted-foreground">
            … {line.skipped} ligne{line.skipped > 1 ? 's' : ''} identique{line.skipped > 1 ? 's' : ''}
          </div>
        ) : (
          <div
            key={i}
            className={cn(
              'whitespace-pre-wrap',
              line.op === '+' && 'bg-success-soft text-success-soft-foreground',
              line.op === '-' && 'bg-destructive-soft text-destructive-soft-foreground',
            )}
          >
            <span aria-hidden="true">{line.op} </span>
            <span className="sr-only">
              {line.op === '+' ? 'ajouté : ' : line.op === '-' ? 'retiré : ' : ''}
            </span>
            {line.text}
          </div>
        ),
      )}
    </pre>
  );
}

function RawDiff({
  version,
  section,
  against,
}: {
  version: number;
  section: THistorySection;
  against: Against;
}) {
  const query = useRawDiff(version, section, against);
  if (query.isPending) return <LoadingState label="Chargement du XML…" />;
  if (query.isError) return <p className="text-sm text-destructive">{errorDetail(query.error, 'Erreur')}</p>;
  return <RawDiffView diff={query.data} />;
}

function SectionBlock({
  version,
  section,
  against,
}: {
  version: number;
  section: TSectionChanges;
  against: Against;
}) {
  const [raw, setRaw] = useState(false);
  return (
    <section aria-labelledby={`changes-${section.section}`} className="grid gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`changes-${section.section}`} className="font-semibold">
          {section.summary}
        </h3>
        <Button variant="ghost" size="sm" aria-expanded={raw} onClick={() => setRaw((v) => !v)}>
          <Code aria-hidden="true" />
          {raw ? 'Masquer le XML' : 'Voir le XML'}
        </Button>
      </div>
      {section.fields.length > 0 ? (
        <div>
          <table className="w-full table-fixed text-sm">
            <caption className="sr-only">Changements de la section {section.label}</caption>
            <thead>
              <tr className="text-left text-muted-foreground">
                <th scope="col" className="pb-1 font-medium">
                  Champ
                </th>
                <th scope="col" className="pb-1 font-medium">
                  Avant
                </th>
                <th scope="col" className="pb-1 font-medium">
                  Après
                </th>
              </tr>
            </thead>
            <tbody>
              {section.fields.map((f, i) => (
                <FieldRow key={`${f.label}-${i}`} field={f} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {raw ? <RawDiff version={version} section={section.section} against={against} /> : null}
    </section>
  );
}

/** « Voir les changements »: against the version before it or the current one, section by section. */
export function ChangesDialog({ version, onClose }: ChangesDialogProps) {
  const [against, setAgainst] = useState<Against>('previous');
  const query = useVersionChanges(version, against);
  const data = query.data;
  return (
    <Dialog open={version !== null} onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent className="max-h-[90svh] max-w-3xl grid-rows-[auto_auto_minmax(0,1fr)] overflow-hidden">
        <DialogHeader>
          <DialogTitle>Changements de la version {version}</DialogTitle>
          <DialogDescription>
            {against === 'previous'
              ? `Par rapport à la version précédente${data?.otherVersion ? ` (version ${data.otherVersion})` : ''}.`
              : `Par rapport à la version actuelle${data?.otherVersion ? ` (version ${data.otherVersion})` : ''} : « Avant » est cette version, « Après » la version actuelle.`}
          </DialogDescription>
        </DialogHeader>
        <div role="group" aria-label="Comparer avec" className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant={against === 'previous' ? 'primary' : 'outline'}
            aria-pressed={against === 'previous'}
            onClick={() => setAgainst('previous')}
          >
            La version précédente
          </Button>
          <Button
            size="sm"
            variant={against === 'current' ? 'primary' : 'outline'}
            aria-pressed={against === 'current'}
            onClick={() => setAgainst('current')}
          >
            La version actuelle
          </Button>
        </div>
        <div className="grid min-h-0 content-start gap-5 overflow-y-auto pr-1">
          {query.isPending && version !== null ? <LoadingState label="Chargement des changements…" /> : null}
          {query.isError ? (
            <ErrorState
              compact
              title="Impossible de charger les changements"
              message={errorDetail(query.error, 'Le serveur ne répond pas.')}
              retrying={query.isFetching}
              onRetry={() => void query.refetch()}
            />
          ) : null}
          {data && data.sections.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              {data.otherVersion === null
                ? 'La version précédente n’est plus conservée.'
                : 'Aucune section ne diffère.'}
            </p>
          ) : null}
          {data?.sections.map((s) => (
            <SectionBlock
              key={`${against}-${s.section}`}
              version={data.version}
              section={s}
              against={against}
            />
          ))}
        </div>
      </DialogContent>
    </Dialog>
  );
}
