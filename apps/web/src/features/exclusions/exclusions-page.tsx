import { memo, useCallback, useDeferredValue, useId, useMemo, useState } from 'react';
import { ChevronRight } from 'lucide-react';
import type { TExclusion, TExclusionType } from '@synchro/contracts';
import { Button } from '../../components/ui/button.tsx';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { SearchInput } from '../../components/ui/input.tsx';
import { cn } from '../../lib/cn.ts';
import { ConfigSectionScreen } from '../../forms/config-section-screen.tsx';
import { useConfigSection, useDataLists } from '../../forms/use-config-section.ts';
import {
  EXCLUSION_COLUMNS,
  exclusionKey,
  filterFamilies,
  indexFamilies,
  setExcluded,
  subExclusionLibelle,
  toExclusionsForm,
  toExclusionsPayload,
  toExclusionsView,
  unlistedCount,
  type ExclusionsForm,
  type Family,
  type SubFamily,
} from './exclusions-form.ts';

/** Families rendered at once per column; 'Afficher plus' adds as many (big ERPs have thousands). */
export const FAMILY_PAGE = 150;

type OnCheck = (exclusion: TExclusion, checked: boolean) => void;

const nf = new Intl.NumberFormat('fr-FR');

const FamilyRow = memo(function FamilyRow({
  type,
  family,
  subFamilies,
  familyChecked,
  checkedSubs,
  open,
  indent,
  onToggleOpen,
  onCheck,
}: {
  type: TExclusionType;
  family: Family;
  subFamilies: SubFamily[];
  familyChecked: boolean;
  /** Ids of the checked sub-families, '\n'-joined (a primitive keeps the row memoised). */
  checkedSubs: string;
  open: boolean;
  /** Keeps a place for the expand button (some family of the column has sub-families). */
  indent: boolean;
  onToggleOpen: (id: string) => void;
  onCheck: OnCheck;
}) {
  const id = useId();
  const subsId = `${id}-subs`;
  const checked = new Set(checkedSubs ? checkedSubs.split('\n') : []);
  const hasSubs = subFamilies.length > 0;
  return (
    <li className="border-b border-border last:border-0">
      <div className="flex min-h-10 items-center gap-1.5 py-1 pr-2">
        {hasSubs ? (
          <button
            type="button"
            aria-expanded={open}
            aria-controls={open ? subsId : undefined}
            aria-label={`${open ? 'Masquer' : 'Afficher'} les sous-familles de ${family.libelle}`}
            onClick={() => onToggleOpen(family.id)}
            className="grid size-7 shrink-0 place-content-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring"
          >
            <ChevronRight
              aria-hidden="true"
              className={cn('size-4 transition-transform', open && 'rotate-90')}
            />
          </button>
        ) : indent ? (
          <span className="size-7 shrink-0" aria-hidden="true" />
        ) : (
          <span className="w-1.5 shrink-0" aria-hidden="true" />
        )}
        <Checkbox
          id={id}
          checked={familyChecked}
          onCheckedChange={(v) => onCheck({ id: family.id, libelle: family.libelle, type }, v === true)}
        />
        <label htmlFor={id} className="min-w-0 flex-1 cursor-pointer py-1 pl-1.5 text-sm leading-snug">
          {family.libelle || family.id}
        </label>
        {hasSubs ? (
          <span
            className={cn(
              'shrink-0 text-xs tabular-nums',
              !familyChecked && checked.size > 0 ? 'font-medium text-primary' : 'text-muted-foreground',
            )}
          >
            {!familyChecked && checked.size > 0
              ? `${nf.format(checked.size)}/${nf.format(family.subFamilies.length)} ${checked.size > 1 ? 'exclues' : 'exclue'}`
              : `${nf.format(family.subFamilies.length)} ${family.subFamilies.length > 1 ? 'sous-familles' : 'sous-famille'}`}
          </span>
        ) : null}
      </div>
      {hasSubs && open ? (
        <ul
          id={subsId}
          aria-label={`Sous-familles de ${family.libelle}`}
          className="mb-1.5 ml-[2.6rem] border-l border-border pl-3"
        >
          {subFamilies.map((sub) => (
            <SubFamilyRow
              key={sub.id}
              type={type}
              family={family}
              sub={sub}
              checked={familyChecked || checked.has(sub.id)}
              disabled={familyChecked}
              onCheck={onCheck}
            />
          ))}
        </ul>
      ) : null}
    </li>
  );
});

function SubFamilyRow({
  type,
  family,
  sub,
  checked,
  disabled,
  onCheck,
}: {
  type: TExclusionType;
  family: Family;
  sub: SubFamily;
  checked: boolean;
  disabled: boolean;
  onCheck: OnCheck;
}) {
  const id = useId();
  return (
    <li className="flex min-h-9 items-center gap-1.5 py-0.5">
      <Checkbox
        id={id}
        checked={checked}
        disabled={disabled}
        onCheckedChange={(v) =>
          onCheck({ id: sub.id, libelle: subExclusionLibelle(family, sub), type }, v === true)
        }
      />
      <label
        htmlFor={id}
        className={cn(
          'min-w-0 flex-1 py-1 pl-1.5 text-sm leading-snug',
          disabled ? 'cursor-not-allowed text-muted-foreground' : 'cursor-pointer',
        )}
      >
        {sub.libelle || sub.id}
      </label>
    </li>
  );
}

function ExclusionColumn({
  type,
  title,
  families,
  form,
  onCheck,
}: {
  type: TExclusionType;
  title: string;
  families: Family[];
  form: ExclusionsForm;
  onCheck: OnCheck;
}) {
  const titleId = useId();
  const filterId = useId();
  const [filter, setFilter] = useState('');
  const [limit, setLimit] = useState(FAMILY_PAGE);
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set());

  const onToggleOpen = useCallback((id: string) => {
    setOpened((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  const index = useMemo(() => indexFamilies(families), [families]);
  // Typing stays responsive in big lists: the list follows the filter when React has time.
  const deferredFilter = useDeferredValue(filter);
  const visible = useMemo(() => filterFamilies(index, deferredFilter), [index, deferredFilter]);
  const checked = useMemo(() => {
    const keys = new Set<string>();
    for (const x of form) if (x.type === type) keys.add(exclusionKey(type, x.id));
    return keys;
  }, [form, type]);
  const count = useMemo(() => form.filter((x) => x.type === type).length, [form, type]);
  const unlisted = useMemo(() => unlistedCount(form, type, families), [form, type, families]);
  const shown = visible.slice(0, limit);
  const indent = useMemo(() => families.some((f) => f.subFamilies.length > 0), [families]);

  return (
    <section
      aria-labelledby={titleId}
      className="flex min-w-0 flex-col rounded-lg border border-border bg-card text-card-foreground shadow-card"
    >
      <div className="grid gap-3 border-b border-border px-4 pt-4 pb-3">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <h2 id={titleId} className="text-base leading-tight font-semibold tracking-tight">
            {title}
          </h2>
          <p className="text-xs text-muted-foreground">
            {nf.format(families.length)} {families.length > 1 ? 'familles' : 'famille'} · {nf.format(count)}{' '}
            {count > 1 ? 'exclusions' : 'exclusion'}
          </p>
        </div>
        <div>
          <label htmlFor={filterId} className="sr-only">
            Filtrer {title.toLowerCase()}
          </label>
          <SearchInput
            id={filterId}
            autoComplete="off"
            placeholder="Filtrer…"
            className="h-9"
            value={filter}
            onChange={(event) => {
              setFilter(event.target.value);
              setLimit(FAMILY_PAGE);
            }}
          />
        </div>
      </div>
      {families.length === 0 ? (
        <p className="px-4 py-6 text-sm text-muted-foreground">Aucune famille dans le logiciel.</p>
      ) : visible.length === 0 ? (
        <p role="status" className="px-4 py-6 text-sm text-muted-foreground">
          Aucune famille ne correspond au filtre.
        </p>
      ) : (
        <div className="max-h-[min(34rem,70vh)] overflow-y-auto px-2 py-1">
          <ul aria-label={title}>
            {shown.map(({ family, subFamilies, openedByFilter }) => (
              <FamilyRow
                key={family.id}
                type={type}
                family={family}
                subFamilies={subFamilies}
                familyChecked={checked.has(exclusionKey(type, family.id))}
                checkedSubs={family.subFamilies
                  .filter((s) => checked.has(exclusionKey(type, s.id)))
                  .map((s) => s.id)
                  .join('\n')}
                open={opened.has(family.id) !== openedByFilter}
                indent={indent}
                onToggleOpen={onToggleOpen}
                onCheck={onCheck}
              />
            ))}
          </ul>
          {visible.length > shown.length ? (
            <div className="flex flex-wrap items-center justify-between gap-2 px-2 py-3">
              <span className="text-xs text-muted-foreground">
                {nf.format(shown.length)} sur {nf.format(visible.length)} affichées
              </span>
              <Button
                type="button"
                variant="outline"
                size="sm"
                onClick={() => setLimit((n) => n + FAMILY_PAGE)}
              >
                Afficher plus
              </Button>
            </div>
          ) : null}
        </div>
      )}
      {filter && visible.length > 0 ? (
        <p role="status" className="sr-only">
          {nf.format(visible.length)} {visible.length > 1 ? 'familles correspondent' : 'famille correspond'}
        </p>
      ) : null}
      {unlisted > 0 ? (
        <p className="border-t border-border px-4 py-2.5 text-xs text-muted-foreground">
          {unlisted > 1
            ? `${nf.format(unlisted)} exclusions absentes des listes du logiciel sont conservées.`
            : '1 exclusion absente des listes du logiciel est conservée.'}
        </p>
      ) : null}
    </section>
  );
}

export default function ExclusionsPage() {
  const section = useConfigSection({
    section: 'exclusions',
    toForm: toExclusionsForm,
    toPayload: toExclusionsPayload,
    toView: toExclusionsView,
  });
  const lists = useDataLists();
  const { update } = section;
  const onCheck = useCallback<OnCheck>(
    (exclusion, checked) => update((f) => setExcluded(f, exclusion, checked)),
    [update],
  );

  // The screen needs both answers; a failing one is the one 'Réessayer' asks again.
  const frame = {
    ...section,
    query: lists.isError && !lists.data ? lists : section.query,
    form: lists.data ? section.form : null,
  };

  return (
    <ConfigSectionScreen
      title="Exclusions de la synchro"
      description="Familles d'articles, de clients et de fournisseurs exclues de la synchronisation. Exclure une famille exclut toutes ses sous-familles."
      section={frame}
    >
      {(form) => (
        <div className="grid items-start gap-6 xl:grid-cols-3">
          {EXCLUSION_COLUMNS.map((column) => (
            <ExclusionColumn
              key={column.type}
              type={column.type}
              title={column.title}
              families={lists.data?.data[column.list] ?? []}
              form={form}
              onCheck={onCheck}
            />
          ))}
        </div>
      )}
    </ConfigSectionScreen>
  );
}
