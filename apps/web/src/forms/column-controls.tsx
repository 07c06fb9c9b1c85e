import type { ReactNode } from 'react';

/** A table row shown as a card (phones): each control under its column's name (hidden from screen readers). */
export function ColumnControls({
  columns,
}: {
  columns: readonly (readonly [name: string, control: ReactNode])[];
}) {
  return columns.map(([name, control]) => (
    <div key={name} className="grid gap-1.5 [&_button]:min-w-0">
      <span aria-hidden="true" className="text-xs font-semibold text-muted-foreground uppercase">
        {name}
      </span>
      {control}
    </div>
  ));
}
