import { memo, useCallback, useId, type KeyboardEvent } from 'react';
import { HISTO_MAX } from '@synchro/contracts';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { Input } from '../../components/ui/input.tsx';
import { cn } from '../../lib/cn.ts';
import { useScrollPadding } from '../../lib/use-scroll-padding.ts';
import { ConfigSectionScreen } from '../../forms/config-section-screen.tsx';
import { patchAt } from '../../forms/patch-at.ts';
import { useConfigSection } from '../../forms/use-config-section.ts';
import {
  allState,
  histoText,
  histoUnit,
  parseHisto,
  toSyncDataForm,
  toSyncDataPayload,
  toSyncDataView,
  type SyncDataForm,
} from './sync-data-form.ts';

export const SYNC_DATA_LOADING = 'Chargement des données à synchroniser...';

type Item = SyncDataForm[number];

const headClass =
  'sticky top-16 z-[5] h-11 border-b border-border bg-muted px-2 text-left align-middle text-xs font-semibold text-muted-foreground uppercase sm:px-4 sm:tracking-wide';

/** The history field: digits only, 0 to 10000, 0 shown empty, '.' and ',' refused (docs/spec-notes.md, Web: Données à synchroniser). */
function HistoField({
  item,
  index,
  onHisto,
}: {
  item: Item;
  index: number;
  onHisto: (index: number, histo: number) => void;
}) {
  const unitId = useId();
  const unit = histoUnit(item.Histo);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === '.' || event.key === ',') {
      event.preventDefault();
    } else if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      event.preventDefault();
      const next = item.Histo + (event.key === 'ArrowUp' ? 1 : -1);
      if (next >= 0 && next <= HISTO_MAX) onHisto(index, next);
    }
  };
  return (
    <div className="flex flex-col items-start gap-1 sm:flex-row sm:items-center sm:gap-2.5">
      <Input
        role="spinbutton"
        inputMode="numeric"
        autoComplete="off"
        aria-label={`Historique de ${item.Libelle}`}
        aria-valuemin={0}
        aria-valuemax={HISTO_MAX}
        aria-valuenow={item.Histo}
        aria-describedby={unit ? unitId : undefined}
        className="h-9 w-20 text-right tabular-nums sm:w-24"
        value={histoText(item.Histo)}
        onKeyDown={onKeyDown}
        onChange={(event) => {
          const histo = parseHisto(event.target.value);
          if (histo !== null) onHisto(index, histo);
        }}
      />
      <span id={unitId} className="text-sm whitespace-nowrap text-muted-foreground sm:min-w-[4.75rem]">
        {unit}
      </span>
    </div>
  );
}

const SyncDataRow = memo(function SyncDataRow({
  item,
  index,
  onComplete,
  onHisto,
}: {
  item: Item;
  index: number;
  onComplete: (index: number, complete: boolean) => void;
  onHisto: (index: number, histo: number) => void;
}) {
  const id = useId();
  return (
    <tr className="border-b border-border transition-colors last:border-0 hover:bg-muted/40">
      <td className="w-px px-2 py-2 sm:px-4">
        <Checkbox
          id={id}
          checked={item.Complete}
          onCheckedChange={(checked) => onComplete(index, checked === true)}
        />
      </td>
      <td className="px-2 py-2 sm:px-4">
        <label
          htmlFor={id}
          className={cn(
            'block cursor-pointer text-sm font-medium',
            item.Complete ? 'text-foreground' : 'text-muted-foreground',
          )}
        >
          {item.Libelle}
        </label>
        <span className="hidden font-mono text-xs text-muted-foreground sm:block">{item.Reference}</span>
      </td>
      <td className="px-2 py-2 sm:px-4">
        {item.CanHaveHistory ? <HistoField item={item} index={index} onHisto={onHisto} /> : null}
      </td>
    </tr>
  );
});

export default function SyncDataPage() {
  const section = useConfigSection({
    section: 'syncData',
    toForm: toSyncDataForm,
    toPayload: toSyncDataPayload,
    toView: toSyncDataView,
  });
  const { update } = section;
  const allId = useId();
  const hintId = useId();

  // Keyboard focus going up the table must not hide under the app header and the sticky table head.
  useScrollPadding('top', '7.5rem');

  const onComplete = useCallback(
    (index: number, Complete: boolean) => update((f) => patchAt(f, index, { Complete })),
    [update],
  );
  const onHisto = useCallback(
    (index: number, Histo: number) => update((f) => patchAt(f, index, { Histo })),
    [update],
  );

  return (
    <ConfigSectionScreen
      title="Données à synchroniser"
      description="Données envoyées aux terminaux et profondeur de leur historique."
      loadingLabel={SYNC_DATA_LOADING}
      section={section}
    >
      {(form) => {
        const all = allState(form);
        const count = form.filter((d) => d.Complete).length;
        return (
          <div className="rounded-lg border border-border bg-card text-card-foreground shadow-card">
            <div className="flex flex-wrap items-center justify-between gap-x-6 gap-y-3 px-3 py-4 sm:px-4">
              <div className="flex items-center gap-3">
                <Checkbox
                  id={allId}
                  checked={all}
                  onCheckedChange={() => {
                    const Complete = all !== true;
                    update((f) => f.map((d) => ({ ...d, Complete })));
                  }}
                />
                <label htmlFor={allId} className="cursor-pointer text-sm font-semibold">
                  Tout
                </label>
                <span className="text-sm text-muted-foreground" aria-live="polite">
                  {count} sur {form.length} synchronisées
                </span>
              </div>
              <p id={hintId} className="max-w-xl text-[0.8125rem] leading-snug text-muted-foreground">
                Historique&nbsp;: de 1 à 10, nombre de documents&#8239;; au-delà, nombre de jours
                (10&#8239;000 au maximum). Vide&nbsp;: aucun historique.
              </p>
            </div>
            <table
              aria-label="Données à synchroniser"
              aria-describedby={hintId}
              className="w-full border-t border-border text-sm"
            >
              <thead>
                <tr>
                  <th scope="col" className={cn(headClass, 'w-px whitespace-nowrap')}>
                    Synchroniser
                  </th>
                  <th scope="col" className={headClass}>
                    Données à synchroniser
                  </th>
                  <th scope="col" className={cn(headClass, 'w-px whitespace-nowrap')}>
                    Historique
                  </th>
                </tr>
              </thead>
              <tbody>
                {form.map((item, index) => (
                  <SyncDataRow
                    key={item.Reference || index}
                    item={item}
                    index={index}
                    onComplete={onComplete}
                    onHisto={onHisto}
                  />
                ))}
              </tbody>
            </table>
          </div>
        );
      }}
    </ConfigSectionScreen>
  );
}
