import { useCallback, useMemo } from 'react';
import { CalendarDays, Users } from 'lucide-react';
import type { TExternalCalendarsView } from '@synchro/contracts';
import { FormSection } from '../../components/ui/form.tsx';
import { OptionsSelect } from '../../components/ui/select.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../components/ui/table.tsx';
import { useMediaQuery } from '../../components/ui/use-media-query.ts';
import { useAuth } from '../../state/auth/auth-context.ts';
import { ColumnControls } from '../../forms/column-controls.tsx';
import { ConfigSectionScreen } from '../../forms/config-section-screen.tsx';
import { patchAt } from '../../forms/patch-at.ts';
import { SelectField } from '../../forms/select-field.tsx';
import { useConfigSection } from '../../forms/use-config-section.ts';
import {
  agendaChoices,
  agendaTypeOptions,
  authorisedTerminals,
  employeeChoices,
  fromTypeSelectValue,
  toExternalCalendarsForm,
  toExternalCalendarsPayload,
  toExternalCalendarsView,
  toTypeSelectValue,
  withLibre,
  type ExternalCalendarsForm,
} from './external-calendars-form.ts';

export default function ExternalCalendarsPage() {
  const { user } = useAuth();
  const minRows = authorisedTerminals(user?.Options);
  const toForm = useCallback(
    (view: TExternalCalendarsView) => toExternalCalendarsForm(view, minRows),
    [minRows],
  );
  const section = useConfigSection({
    section: 'externalCalendars',
    toForm,
    toPayload: toExternalCalendarsPayload,
    toView: toExternalCalendarsView,
  });
  const { update } = section;
  const view = section.query.data?.data;
  const employees = useMemo(() => (view ? employeeChoices(view) : []), [view]);
  const agendas = useMemo(() => (view ? agendaChoices(view) : []), [view]);

  const compact = useMediaQuery('(max-width: 639px)');
  const controls = (m: ExternalCalendarsForm['mappings'][number], i: number) => ({
    employee: (
      <OptionsSelect
        aria-label={`Salarié de la ligne ${i + 1}`}
        className="min-w-48"
        contentClassName="max-h-72"
        value={m.ID_Salarie}
        options={withLibre(employees, m.ID_Salarie)}
        onValueChange={(ID_Salarie) => setRow(i, { ID_Salarie })}
      />
    ),
    agenda: (
      <OptionsSelect
        aria-label={`Agenda de la ligne ${i + 1}`}
        className="min-w-48"
        contentClassName="max-h-72"
        value={m.ID_Agenda}
        options={withLibre(agendas, m.ID_Agenda)}
        onValueChange={(ID_Agenda) => setRow(i, { ID_Agenda })}
      />
    ),
  });

  const setRow = (index: number, patch: Partial<ExternalCalendarsForm['mappings'][number]>) =>
    update((f) => ({ ...f, mappings: patchAt(f.mappings, index, patch) }));

  return (
    <ConfigSectionScreen
      title="Agendas externes"
      description="Correspondance entre les salariés et leurs agendas externes (Google Agenda ou Outlook)."
      section={section}
    >
      {(form) => (
        <>
          <FormSection
            title="Type d'agenda"
            icon={<CalendarDays aria-hidden="true" />}
            contentClassName="grid-cols-1 @xl:grid-cols-1"
          >
            <SelectField
              label="Type d'agenda"
              className="grid-cols-1 @xl:max-w-xl"
              value={toTypeSelectValue(form.agendaType)}
              onValueChange={(value) => update((f) => ({ ...f, agendaType: fromTypeSelectValue(value) }))}
              options={agendaTypeOptions(form.agendaType)}
            />
          </FormSection>

          <FormSection
            title="Correspondances"
            description={`Une ligne au moins par terminal autorisé (${minRows}). «\u00a0Libre\u00a0» laisse la ligne sans salarié ou sans agenda.`}
            icon={<Users aria-hidden="true" />}
            contentClassName="grid-cols-1 @xl:grid-cols-1"
          >
            {compact ? (
              <ul aria-label="Correspondances entre salariés et agendas" className="grid gap-3">
                {form.mappings.map((m, i) => {
                  const c = controls(m, i);
                  return (
                    <li key={i} className="grid gap-3 rounded-md border border-border p-3">
                      <span className="text-sm font-medium">Ligne {i + 1}</span>
                      <ColumnControls
                        columns={[
                          ['Salariés', c.employee],
                          ['Agendas', c.agenda],
                        ]}
                      />
                    </li>
                  );
                })}
              </ul>
            ) : (
              <Table className="min-w-[30rem]">
                <caption className="sr-only">Correspondances entre salariés et agendas</caption>
                <TableHeader>
                  <TableRow className="hover:bg-transparent">
                    <TableHead className="w-12">N°</TableHead>
                    <TableHead>Salariés</TableHead>
                    <TableHead>Agendas</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {form.mappings.map((m, i) => {
                    const c = controls(m, i);
                    return (
                      <TableRow key={i}>
                        <TableCell className="text-muted-foreground tabular-nums">{i + 1}</TableCell>
                        <TableCell>{c.employee}</TableCell>
                        <TableCell>{c.agenda}</TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            )}
          </FormSection>
        </>
      )}
    </ConfigSectionScreen>
  );
}
