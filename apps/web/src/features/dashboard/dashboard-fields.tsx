import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

/** Shown for a value the configuration does not give. */
export const NOT_AVAILABLE = 'NC';

/** One read-only field: label, value and its warnings. */
export function Field({
  label,
  children,
  warning,
  tone,
}: {
  label: string;
  children: ReactNode;
  warning?: ReactNode;
  tone?: 'warning' | 'destructive';
}) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-[minmax(0,13rem)_minmax(0,1fr)] sm:gap-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd
        className={cn(
          'flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm font-medium text-foreground',
          tone === 'warning' && 'text-warning-soft-foreground',
          tone === 'destructive' && 'text-destructive',
        )}
      >
        {children}
        {warning}
      </dd>
    </div>
  );
}

export function FieldList({ children }: { children: ReactNode }) {
  return <dl className="divide-y divide-border">{children}</dl>;
}
