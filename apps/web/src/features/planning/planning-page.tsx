import { useEffect, useRef, useState } from 'react';
import { CalendarClock, CalendarRange, Globe, Info, Plus, Trash2 } from 'lucide-react';
import type { TPlanning } from '@synchro/contracts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormSection } from '../../components/ui/form.tsx';
import { OptionsSelect } from '../../components/ui/select.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { useMediaQuery } from '../../components/ui/use-media-query.ts';
import { errorDetail } from '../../lib/api-client.ts';
import { formatUtcOffset } from '../../lib/format.ts';
import { ColumnControls } from '../../forms/column-controls.tsx';
import { ConfigSectionScreen } from '../../forms/config-section-screen.tsx';
import { patchAt } from '../../forms/patch-at.ts';
import { SelectField } from '../../forms/select-field.tsx';
import { useConfigSection } from '../../forms/use-config-section.ts';
import { withStored } from '../../forms/with-stored.ts';
import {
  DAY_OPTIONS,
  NEW_PLANNING,
  TYPE_OPTIONS,
  dayLabel,
  timeOptions,
  toPlanningForm,
  toPlanningPayload,
  toPlanningView,
  typeLabel,
  type PlanningForm,
} from './planning-form.ts';
import { formatNextRun, nextRuns, scheduleZone } from './next-runs.ts';
import { currentOffsetMinutes, timeZoneOptions } from './time-zones.ts';

export const PLANNING_TITLE = 'Planification des synchronisations';
export const PLANNINGS_LOAD_FAILED = 'Impossible de récupérer les planifications';
export const PLANNINGS_LOADING = 'Chargement des planifications...';
export const PLANNINGS_LOAD_ERROR = "Une erreur s'est produite lors du chargement des planifications.";
export const PLANNINGS_EMPTY =
  'Aucune planification trouvée. Cliquez sur "Ajouter" pour créer une nouvelle planification.';
export const LOCAL_TIME_NOTE = 'Les heures affichées sont adaptées au fuseau horaire local.';

/** 'Tous les jours à 00:00, Complète': names a row for the controls of that row. */
const describePlanning = (p: TPlanning) => `${dayLabel(p.day)} à ${p.time}, ${typeLabel(p.type)}`;

function TimeZoneBlock({ form, onChange }: { form: PlanningForm; onChange: (zone: string) => void }) {
  const offset = currentOffsetMinutes(form.timeZone, form.timeZoneOffset);
  return (
    <FormSection
      title="Fuseau horaire"
      description="Le fuseau dans lequel le connecteur lit les heures de synchronisation."
      icon={<Globe aria-hidden="true" />}
      contentClassName="grid-cols-1 @xl:grid-cols-1"
    >
      <div
        role="note"
        className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border border-primary/20 bg-primary-soft px-4 py-3 text-sm text-primary-soft-foreground"
      >
        <Info aria-hidden="true" className="size-4 shrink-0" />
        <p className="min-w-0 flex-1 basis-56">{LOCAL_TIME_NOTE}</p>
        {offset !== null && offset !== 0 ? (
          <Badge variant="primary" className="border-primary/30 bg-card">
            <span className="sr-only">Décalage horaire&nbsp;: </span>
            {formatUtcOffset(offset)}
          </Badge>
        ) : null}
      </div>
      <SelectField
        label="Fuseau horaire"
        className="grid-cols-1 @xl:max-w-xl"
        value={form.timeZone}
        onValueChange={onChange}
        options={timeZoneOptions(form.timeZone)}
        placeholder="Choisissez un fuseau horaire"
        contentClassName="max-h-80"
      />
    </FormSection>
  );
}

function PlanningTable({
  plannings,
  onChange,
  onDelete,
}: {
  plannings: TPlanning[];
  onChange: (index: number, patch: Partial<TPlanning>) => void;
  onDelete: (index: number) => void;
}) {
  const compact = useMediaQuery('(max-width: 639px)');
  if (plannings.length === 0) {
    return (
      <p className="rounded-md border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">
        {PLANNINGS_EMPTY}
      </p>
    );
  }
  const controls = (p: TPlanning, i: number) => {
    const row = `planification ${i + 1}`;
    return {
      day: (
        <OptionsSelect
          contentClassName="max-h-72"
          aria-label={`Jour de synchronisation, ${row}`}
          data-row-control={`day-${i}`}
          className="min-w-40"
          value={String(p.day)}
          options={withStored(DAY_OPTIONS, p.day, (d) => `Jour ${d} (valeur enregistrée)`).map((o) => ({
            value: String(o.value),
            label: o.label,
          }))}
          onValueChange={(v) => onChange(i, { day: Number(v) })}
        />
      ),
      time: (
        <OptionsSelect
          contentClassName="max-h-72"
          aria-label={`Heure de synchronisation, ${row}`}
          className="min-w-28 tabular-nums"
          value={p.time}
          options={timeOptions(p.time)}
          onValueChange={(time) => onChange(i, { time })}
        />
      ),
      type: (
        <OptionsSelect
          contentClassName="max-h-72"
          aria-label={`Type de synchronisation, ${row}`}
          className="min-w-52"
          value={p.type}
          options={withStored(TYPE_OPTIONS, p.type as 'C')}
          onValueChange={(type) => onChange(i, { type })}
        />
      ),
      remove: (
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="text-destructive hover:bg-destructive-soft hover:text-destructive"
          aria-label={`Supprimer la ${row} (${describePlanning(p)})`}
          data-delete-row={i}
          onClick={() => onDelete(i)}
        >
          <Trash2 aria-hidden="true" />
        </Button>
      ),
    };
  };
  if (compact) {
    // Phones: one card per schedule, each control under its column's name.
    return (
      <ul aria-label="Synchronisations planifiées" className="grid gap-3">
        {plannings.map((p, i) => {
          const c = controls(p, i);
          return (
            <li key={i} className="grid gap-3 rounded-md border border-border p-3">
              <div className="flex items-center justify-between gap-2">
                <span className="text-sm font-medium">Planification {i + 1}</span>
                {c.remove}
              </div>
              <ColumnControls
                columns={[
                  ['Jours de synchronisation', c.day],
                  ['Heure synchro', c.time],
                  ['Type synchro', c.type],
                ]}
              />
            </li>
          );
        })}
      </ul>
    );
  }
  return (
    <Table className="min-w-[34rem]">
      <caption className="sr-only">Synchronisations planifiées</caption>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>Jours de synchronisation</TableHead>
          <TableHead>Heure synchro</TableHead>
          <TableHead>Type synchro</TableHead>
          <TableHead className="w-20 text-right">Action</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {plannings.map((p, i) => {
          const c = controls(p, i);
          return (
            <TableRow key={i}>
              <TableCell>{c.day}</TableCell>
              <TableCell>{c.time}</TableCell>
              <TableCell>{c.type}</TableCell>
              <TableCell className="text-right">{c.remove}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

export const NEXT_RUNS_TITLE = 'Prochaines synchronisations';

/**
 * The next 5 runs of each type, computed from the lines being edited, in the zone chosen above
 * (next-runs.ts). Refreshed each minute so that a run that has passed leaves the list.
 */
function NextRunsBlock({ form }: { form: PlanningForm }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const where = scheduleZone(form.timeZone, form.timeZoneOffset);
  return (
    <FormSection
      title={NEXT_RUNS_TITLE}
      description="Les 5 prochaines exécutions de chaque type, à l'heure du fuseau choisi (avec son décalage)."
      icon={<CalendarRange aria-hidden="true" />}
      contentClassName="grid-cols-1 @xl:grid-cols-3"
    >
      {TYPE_OPTIONS.map((t) => {
        const runs = where ? nextRuns(form.plannings, t.value, where, now) : [];
        const id = `next-runs-${t.value}`;
        return (
          <section key={t.value} aria-labelledby={id} className="min-w-0 rounded-md border border-border p-3">
            <h3 id={id} className="mb-2 text-sm font-medium">
              {t.label}
            </h3>
            {runs.length === 0 ? (
              <p className="text-sm text-muted-foreground">
                {where ? 'Aucune synchronisation planifiée.' : 'Choisissez un fuseau horaire.'}
              </p>
            ) : (
              <ol className="grid gap-1 text-sm tabular-nums">
                {runs.map((r) => (
                  <li key={r.at}>
                    <time dateTime={new Date(r.at).toISOString()}>{formatNextRun(r)}</time>
                  </li>
                ))}
              </ol>
            )}
          </section>
        );
      })}
    </FormSection>
  );
}

export default function PlanningPage() {
  const section = useConfigSection({
    section: 'planifications',
    toForm: toPlanningForm,
    toPayload: toPlanningPayload,
    toView: toPlanningView,
  });
  const { update, query } = section;

  // A load failure also raises a toast, once per failed fetch (docs/spec-notes.md, Web: Planification).
  const { isError, errorUpdatedAt, error } = query;
  useEffect(() => {
    if (!isError) return;
    toast({
      title: PLANNINGS_LOAD_FAILED,
      description: errorDetail(error, 'Le serveur ne répond pas.'),
      variant: 'destructive',
    });
  }, [isError, errorUpdatedAt, error]);

  // Keyboard users keep their place: a new row's first select, or the delete button that took the
  // deleted row's place (else the previous one, else 'Ajouter').
  const tableRef = useRef<HTMLDivElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const pendingFocus = useRef<{ kind: 'added' | 'deleted'; index: number } | null>(null);
  const count = section.form?.plannings.length ?? 0;
  useEffect(() => {
    const pending = pendingFocus.current;
    if (!pending) return;
    pendingFocus.current = null;
    const root = tableRef.current;
    if (pending.kind === 'added') {
      root?.querySelector<HTMLElement>(`[data-row-control="day-${pending.index}"]`)?.focus();
      return;
    }
    const buttons = root ? [...root.querySelectorAll<HTMLElement>('[data-delete-row]')] : [];
    (buttons[pending.index] ?? buttons[pending.index - 1] ?? addRef.current)?.focus();
  }, [count]);

  const setPlanning = (index: number, patch: Partial<TPlanning>) =>
    update((f) => ({ ...f, plannings: patchAt(f.plannings, index, patch) }));

  return (
    <ConfigSectionScreen
      title={PLANNING_TITLE}
      description="Jours, heures et types des synchronisations automatiques lancées par le connecteur."
      section={section}
      loadingLabel={PLANNINGS_LOADING}
      errorTitle={PLANNINGS_LOAD_ERROR}
    >
      {(form) => (
        <>
          <TimeZoneBlock form={form} onChange={(timeZone) => update((f) => ({ ...f, timeZone }))} />
          <FormSection
            title="Synchronisations planifiées"
            description={
              form.plannings.length > 0
                ? `${form.plannings.length} planification${form.plannings.length > 1 ? 's' : ''}`
                : undefined
            }
            icon={<CalendarClock aria-hidden="true" />}
            contentClassName="grid-cols-1 @xl:grid-cols-1"
            status={
              <Button
                ref={addRef}
                type="button"
                variant="outline"
                onClick={() => {
                  pendingFocus.current = { kind: 'added', index: form.plannings.length };
                  update((f) => ({ ...f, plannings: [...f.plannings, { ...NEW_PLANNING }] }));
                }}
              >
                <Plus aria-hidden="true" />
                Ajouter
              </Button>
            }
          >
            <div ref={tableRef} className="min-w-0">
              <PlanningTable
                plannings={form.plannings}
                onChange={setPlanning}
                onDelete={(index) => {
                  pendingFocus.current = { kind: 'deleted', index };
                  update((f) => ({ ...f, plannings: f.plannings.filter((_, j) => j !== index) }));
                }}
              />
            </div>
          </FormSection>
          <NextRunsBlock form={form} />
        </>
      )}
    </ConfigSectionScreen>
  );
}
