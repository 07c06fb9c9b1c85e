import { useId, type ReactNode } from 'react';
import { Download } from 'lucide-react';
import { Button } from '../ui/button.tsx';
import { Checkbox } from '../ui/checkbox.tsx';
import { Label } from '../ui/label.tsx';
import { DateFilter } from './date-filter.tsx';
import type { ListFilters } from './list-state.ts';
import { SearchBox } from './search-box.tsx';

export interface FilterBarProps {
  filters: ListFilters;
  searchLabel: string;
  searchPlaceholder: string;
  errorOnlyLabel: string;
  onDayChange: (day: string | null) => void;
  onSearch: (text: string) => void;
  onErrorOnlyChange: (errorOnly: boolean) => void;
  /** The CSV export of the filtered list (the browser downloads it as it streams). */
  exportHref: string;
  /** Another filter of the list (the audit journal's kind), shown before the date. */
  extra?: ReactNode;
}

/** Date, search, errors only, and the CSV export of what they select: one bar for the list screens. */
export function FilterBar(props: FilterBarProps) {
  const errorsId = useId();
  const { filters } = props;
  return (
    <section
      aria-label="Filtres"
      className="mb-4 grid gap-4 rounded-lg border border-border bg-card p-4 shadow-card md:grid-cols-[minmax(12rem,15rem)_minmax(0,1fr)] xl:grid-cols-[15rem_minmax(0,1fr)_auto]"
    >
      {props.extra ? <div className="md:col-span-2 xl:col-span-3">{props.extra}</div> : null}
      <DateFilter value={filters.day} onChange={props.onDayChange} />
      <SearchBox
        label={props.searchLabel}
        placeholder={props.searchPlaceholder}
        applied={filters.search}
        onSearch={props.onSearch}
      />
      <div className="flex flex-wrap items-center justify-between gap-3 md:col-span-2 xl:col-span-1 xl:flex-col xl:items-end xl:justify-end xl:pb-6">
        <div className="flex items-center gap-2.5">
          <Checkbox
            id={errorsId}
            checked={filters.errorOnly}
            onCheckedChange={(checked) => props.onErrorOnlyChange(checked === true)}
          />
          <Label htmlFor={errorsId} className="leading-5">
            {props.errorOnlyLabel}
          </Label>
        </div>
        <Button asChild variant="outline" size="sm">
          <a href={props.exportHref} download>
            <Download aria-hidden="true" />
            Exporter en CSV
          </a>
        </Button>
      </div>
    </section>
  );
}
