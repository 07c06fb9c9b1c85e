import { useId, type FormEvent } from 'react';
import { MonitorSmartphone, TabletSmartphone } from 'lucide-react';
import type { TDataLists } from '@synchro/contracts';
import { Card, CardTitle } from '../../components/ui/card.tsx';
import { SaveBar } from '../../components/ui/form.tsx';
import { cn } from '../../lib/cn.ts';
import { TextField } from '../../forms/text-field.tsx';
import { Commerciaux } from './commerciaux-field.tsx';
import { EmployeeSelect } from './employee-select.tsx';
import { Features } from './terminal-features.tsx';
import { displayName, employeeLabel, type TerminalForm } from './terminals-form.ts';
import { EDITOR_ID, PANEL_HEIGHT } from './terminals-layout.ts';

/** The right panel when no terminal is selected. */
export function NoTerminalSelected() {
  return (
    <Card className={cn('grid min-h-48 place-content-center px-6 py-12 text-center', PANEL_HEIGHT)}>
      <div className="mx-auto mb-4 grid size-14 place-content-center rounded-full bg-primary-soft text-primary [&_svg]:size-7">
        <TabletSmartphone aria-hidden="true" />
      </div>
      <p className="text-base font-medium">Sélectionnez un terminal pour l'éditer</p>
    </Card>
  );
}

export function TerminalEditor({
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
