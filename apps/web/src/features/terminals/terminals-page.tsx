import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Ban, Check, EyeOff, MonitorSmartphone, TabletSmartphone } from 'lucide-react';
import {
  CONFIG_SECTIONS,
  type TDataLists,
  type TEmployee,
  type TSectionView,
  type TTerminalView,
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
} from '../../components/ui/alert-dialog.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardTitle } from '../../components/ui/card.tsx';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { ErrorState } from '../../components/ui/error-state.tsx';
import { SaveBar } from '../../components/ui/form.tsx';
import { Label } from '../../components/ui/label.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { LoadingState } from '../../components/ui/spinner.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { errorDetail } from '../../lib/api-client.ts';
import { cn } from '../../lib/cn.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { patchAt } from '../../forms/patch-at.ts';
import { SelectField } from '../../forms/select-field.tsx';
import { TextField } from '../../forms/text-field.tsx';
import { useConfigSection, useDataLists } from '../../forms/use-config-section.ts';
import { withStored } from '../../forms/with-stored.ts';
import {
  AUTORISE_LABELS,
  NONE,
  UNKNOWN_POSITION,
  displayName,
  employeeLabel,
  knownPosition,
  nextAutorise,
  setAll,
  toTerminalForm,
  toTerminalPayload,
  toTerminalsView,
  type Autorise,
  type TerminalForm,
} from './terminals-form.ts';

const TITLE = 'Terminaux';
/** Spec §2: both panels are 680 px high on wide screens; stacked on phones. */
const PANEL_HEIGHT = 'lg:h-[680px]';
const EDITOR_ID = 'terminal-editor';
/** Under this width the panels are stacked: choosing a terminal brings its editor into view. */
const STACKED_QUERY = '(max-width: 1023.98px)';

// ---------------------------------------------------------------------------------------------
// Left panel

function TerminalItem({
  terminal,
  selected,
  onSelect,
}: {
  terminal: TTerminalView;
  selected: boolean;
  onSelect: () => void;
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
      </button>
    </li>
  );
}

function TerminalList({
  terminals,
  selected,
  onSelect,
}: {
  terminals: TTerminalView[];
  selected: number | null;
  onSelect: (position: number) => void;
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
      <ul aria-labelledby={titleId} className="grid min-h-0 flex-1 content-start gap-1.5 overflow-y-auto p-2">
        {terminals.map((t, i) => (
          <TerminalItem key={i} terminal={t} selected={selected === i} onSelect={() => onSelect(i)} />
        ))}
      </ul>
    </Card>
  );
}

// ---------------------------------------------------------------------------------------------
// Right panel

const AUTORISE_STYLES: Record<Autorise, string> = {
  1: 'border-success/40 bg-success-soft text-success-soft-foreground hover:bg-[#d3efe0]',
  0: 'border-destructive/40 bg-destructive-soft text-destructive-soft-foreground hover:bg-[#fbdcd8]',
  [-1]: 'border-input bg-muted text-muted-foreground hover:bg-[#e2e8ee]',
};

const AUTORISE_ICONS: Record<Autorise, ReactNode> = {
  1: <Check aria-hidden="true" />,
  0: <Ban aria-hidden="true" />,
  [-1]: <EyeOff aria-hidden="true" />,
};

/** The tri-state toggle of spec §4: 1 (green) → -1 (grey) → 0 (red) → 1. */
function AutoriseToggle({
  feature,
  value,
  hintId,
  onChange,
}: {
  feature: string;
  value: Autorise;
  hintId: string;
  onChange: (value: Autorise) => void;
}) {
  return (
    <button
      type="button"
      aria-label={`${feature}\u00a0: ${AUTORISE_LABELS[value]}`}
      aria-describedby={hintId}
      onClick={() => onChange(nextAutorise(value))}
      className={cn(
        'inline-flex h-7 w-28 shrink-0 items-center justify-center gap-1.5 rounded-full border text-xs font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring [&_svg]:size-3.5',
        AUTORISE_STYLES[value],
      )}
    >
      {AUTORISE_ICONS[value]}
      {AUTORISE_LABELS[value]}
    </button>
  );
}

function Features({
  form,
  onChange,
}: {
  form: TerminalForm;
  onChange: (change: (form: TerminalForm) => TerminalForm) => void;
}) {
  const titleId = useId();
  const hintId = useId();
  const count = (v: Autorise) => form.authorizations.filter((a) => a.Autorise === v).length;
  return (
    <section aria-labelledby={titleId} className="flex min-w-0 flex-col gap-3 @3xl:min-h-0">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="grid gap-0.5">
          <h3 id={titleId} className="text-sm font-semibold">
            Fonctionnalités
          </h3>
          <p className="text-xs text-muted-foreground">
            {count(1)} autorisée{count(1) > 1 ? 's' : ''}, {count(0)} interdite{count(0) > 1 ? 's' : ''},{' '}
            {count(-1)} invisible{count(-1) > 1 ? 's' : ''}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={() => onChange((f) => setAll(f, 1))}>
            Tout Autoriser
          </Button>
          <Button size="sm" variant="outline" onClick={() => onChange((f) => setAll(f, 0))}>
            Tout Interdire
          </Button>
        </div>
      </div>
      <p id={hintId} className="sr-only">
        Chaque activation passe à l'état suivant{'\u00a0'}: Autorisé, Invisible, Interdit.
      </p>
      <ul
        aria-labelledby={titleId}
        className="divide-y divide-border rounded-md border border-border @3xl:min-h-0 @3xl:flex-1 @3xl:overflow-y-auto"
      >
        {form.authorizations.map((a, i) => (
          <li key={a.ID} className="flex items-center justify-between gap-3 px-3 py-1.5">
            <span className="min-w-0 text-sm">{a.Libelle}</span>
            <AutoriseToggle
              feature={a.Libelle}
              value={a.Autorise}
              hintId={hintId}
              onChange={(Autorise) =>
                onChange((f) => ({
                  ...f,
                  authorizations: patchAt(f.authorizations, i, { Autorise }),
                }))
              }
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

function EmployeeSelect({
  label,
  value,
  noneLabel,
  options,
  onChange,
}: {
  label: string;
  value: string;
  noneLabel: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  const choices = [{ value: NONE, label: noneLabel }, ...options];
  const all = value === '' ? choices : withStored(choices, value, (id) => `Inconnu (${id})`);
  return (
    <SelectField
      label={label}
      value={value === '' ? NONE : value}
      onValueChange={(v) => onChange(v === NONE ? '' : v)}
      options={all}
    />
  );
}

function Commerciaux({
  form,
  salaries,
  onChange,
}: {
  form: TerminalForm;
  salaries: TEmployee[];
  onChange: (change: (form: TerminalForm) => TerminalForm) => void;
}) {
  const baseId = useId();
  // The salariés of the lists, then the commercials of the terminal the lists no longer hold.
  const items = salaries.map((s) => ({ IDInterne: s.IDInterne, Libelle: employeeLabel(s) }));
  for (const c of form.commerciaux)
    if (!items.some((i) => i.IDInterne === c.IDInterne))
      items.push({ IDInterne: c.IDInterne, Libelle: c.Libelle });
  const checked = (id: string) => form.commerciaux.some((c) => c.IDInterne === id);
  return (
    <fieldset className="grid min-w-0 gap-2">
      <legend className="mb-2 text-sm leading-none font-medium">Filtre Commerciaux (Salariés)</legend>
      {items.length === 0 ? (
        <p className="text-sm text-muted-foreground">Aucun salarié dans les listes du connecteur.</p>
      ) : (
        <ul className="max-h-48 overflow-y-auto rounded-md border border-input bg-card p-1">
          {items.map((item, i) => {
            const id = `${baseId}-${i}`;
            return (
              <li
                key={item.IDInterne}
                className="flex items-center gap-2.5 rounded px-2 py-1.5 hover:bg-muted"
              >
                <Checkbox
                  id={id}
                  checked={checked(item.IDInterne)}
                  onCheckedChange={(on) =>
                    onChange((f) => ({
                      ...f,
                      commerciaux:
                        on === true
                          ? [...f.commerciaux.filter((c) => c.IDInterne !== item.IDInterne), item]
                          : f.commerciaux.filter((c) => c.IDInterne !== item.IDInterne),
                    }))
                  }
                />
                <Label htmlFor={id} className="flex-1 cursor-pointer py-0.5 leading-5 font-normal">
                  {item.Libelle || item.IDInterne}
                </Label>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}

function TerminalEditor({
  form,
  lists,
  dirty,
  saving,
  onChange,
  onSave,
}: {
  form: TerminalForm;
  lists: TDataLists;
  dirty: boolean;
  saving: boolean;
  onChange: (change: (form: TerminalForm) => TerminalForm) => void;
  onSave: () => void;
}) {
  const titleId = useId();
  const title = `Édition du terminal #${form.xmlIndex + 1} - ${displayName(form.Nom)}`;
  const set = (patch: Partial<TerminalForm>) => onChange((f) => ({ ...f, ...patch }));
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!saving) onSave();
  };
  return (
    <Card
      id={EDITOR_ID}
      aria-labelledby={titleId}
      className={cn('@container flex min-w-0 scroll-mt-20 flex-col', PANEL_HEIGHT)}
    >
      <div className="flex items-center gap-3 border-b border-border px-5 py-3">
        <div className="grid size-8 shrink-0 place-content-center rounded-md bg-primary-soft text-primary [&_svg]:size-4">
          <MonitorSmartphone aria-hidden="true" />
        </div>
        <CardTitle id={titleId} className="min-w-0 break-words">
          {title}
        </CardTitle>
      </div>
      <form noValidate aria-labelledby={titleId} onSubmit={onSubmit} className="flex min-h-0 flex-1 flex-col">
        <div className="grid min-h-0 flex-1 gap-6 p-5 lg:overflow-y-auto @3xl:grid-cols-[minmax(0,5fr)_minmax(0,6fr)] @3xl:grid-rows-[minmax(0,1fr)]">
          <div className="grid min-w-0 content-start gap-4 @3xl:min-h-0 @3xl:overflow-y-auto @3xl:p-0.5">
            <TextField label="Nom de l'utilisateur" value={form.Nom} onChange={(Nom) => set({ Nom })} />
            <TextField
              label="Identifiant Tablette / PC"
              value={form.ID_Tablette}
              onChange={(ID_Tablette) => set({ ID_Tablette })}
            />
            <TextField
              label="Identifiant Smartphone"
              value={form.ID_Smartphone}
              onChange={(ID_Smartphone) => set({ ID_Smartphone })}
            />
            <EmployeeSelect
              label="Technicien par défaut"
              value={form.technicienId}
              noneLabel="Aucun technicien"
              options={lists.techniciens.map((t) => ({ value: t.IDInterne, label: employeeLabel(t) }))}
              onChange={(technicienId) => set({ technicienId })}
            />
            <EmployeeSelect
              label="Dépôt par défaut"
              value={form.depotId}
              noneLabel="Aucun dépôt"
              options={lists.depots.map((d) => ({ value: d.IDInterne, label: d.Libelle || d.Code }))}
              onChange={(depotId) => set({ depotId })}
            />
            <Commerciaux form={form} salaries={lists.salaries} onChange={onChange} />
          </div>
          <Features form={form} onChange={onChange} />
        </div>
        <SaveBar
          dirty={dirty}
          saving={saving}
          label={saving ? 'Sauvegarde...' : 'Valider'}
          className="mx-0 mt-0 rounded-b-lg bg-card px-5 sm:mx-0 sm:px-5 lg:static lg:mx-0 lg:px-5"
        />
      </form>
    </Card>
  );
}

// ---------------------------------------------------------------------------------------------
// Screen

export default function TerminalsPage() {
  usePageTitle(TITLE);
  const [selected, setSelected] = useState<number | null>(null);
  const [switchTo, setSwitchTo] = useState<number | null>(null);

  const toForm = useCallback(
    (view: TSectionView<'terminals'>): TerminalForm | null => {
      const terminal = selected === null ? undefined : view.terminals[selected];
      return terminal && selected !== null ? toTerminalForm(terminal, selected) : null;
    },
    [selected],
  );
  const section = useConfigSection({
    section: 'terminals',
    toForm,
    toPayload: toTerminalPayload,
    toView: toTerminalsView,
  });
  const lists = useDataLists();

  const reveal = useRef(false);
  useEffect(() => {
    if (!reveal.current) return;
    reveal.current = false;
    if (!window.matchMedia?.(STACKED_QUERY).matches) return;
    document.getElementById(EDITOR_ID)?.scrollIntoView?.({ block: 'start' });
  }, [selected]);

  const choose = (position: number) => {
    reveal.current = true;
    setSelected(position);
  };

  const select = (position: number) => {
    if (position === selected) return;
    if (section.dirty) {
      setSwitchTo(position);
      return;
    }
    // A draft left from edits undone by hand belongs to the previous terminal.
    section.discard();
    choose(position);
  };

  const save = () => {
    const form = section.form;
    if (!form || !knownPosition(form)) {
      toast({
        title: CONFIG_SECTIONS.terminals.save.failureTitle,
        description: UNKNOWN_POSITION,
        variant: 'destructive',
      });
      return;
    }
    section.save();
  };

  const terminals = section.query.data?.data.terminals;
  let body: ReactNode;
  if (terminals && lists.data) {
    const form = section.form;
    body = (
      <div className="grid gap-6 lg:grid-cols-[18rem_minmax(0,1fr)]">
        <TerminalList terminals={terminals} selected={selected} onSelect={select} />
        {form ? (
          <TerminalEditor
            form={form}
            lists={lists.data.data}
            dirty={section.dirty}
            saving={section.saving}
            onChange={section.update}
            onSave={save}
          />
        ) : (
          <Card className={cn('grid min-h-48 place-content-center px-6 py-12 text-center', PANEL_HEIGHT)}>
            <div className="mx-auto mb-4 grid size-14 place-content-center rounded-full bg-primary-soft text-primary [&_svg]:size-7">
              <TabletSmartphone aria-hidden="true" />
            </div>
            <p className="text-base font-medium">Sélectionnez un terminal pour l'éditer</p>
          </Card>
        )}
      </div>
    );
  } else if (section.query.isError || lists.isError) {
    const error = section.query.error ?? lists.error;
    body = (
      <ErrorState
        title="Impossible de charger les terminaux"
        message={errorDetail(error, 'Le serveur ne répond pas.')}
        retrying={section.query.isFetching || lists.isFetching}
        onRetry={() => {
          if (section.query.isError) void section.query.refetch();
          if (lists.isError) void lists.refetch();
        }}
      />
    );
  } else {
    body = <LoadingState label="Chargement des terminaux…" />;
  }

  return (
    <>
      <PageHeader
        title={TITLE}
        description="Utilisateurs, identifiants et fonctionnalités autorisées de chaque terminal."
      />
      {body}
      <AlertDialog
        open={switchTo !== null}
        onOpenChange={(open) => {
          if (!open) setSwitchTo(null);
        }}
      >
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Modifications non sauvegardées</AlertDialogTitle>
            <AlertDialogDescription>
              Les modifications de ce terminal ne sont pas sauvegardées. Voulez-vous changer de terminal sans
              les sauvegarder{'\u202f'}?
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Rester sur ce terminal</AlertDialogCancel>
            <AlertDialogAction
              variant="destructive"
              onClick={() => {
                section.discard();
                if (switchTo !== null) choose(switchTo);
                setSwitchTo(null);
              }}
            >
              Changer sans sauvegarder
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
