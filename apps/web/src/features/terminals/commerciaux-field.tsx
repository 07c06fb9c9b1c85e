import { useId } from 'react';
import type { TEmployee } from '@synchro/contracts';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { Label } from '../../components/ui/label.tsx';
import { employeeLabel, type TerminalForm } from './terminals-form.ts';

/** 'Filtre Commerciaux (Salariés)': the checklist of the salariés a terminal shows. */
export function Commerciaux({
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
