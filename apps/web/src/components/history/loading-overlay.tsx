import { LoaderCircle } from 'lucide-react';

/** Over a list while its next page loads: the rows stay visible, dimmed, with the loading text. */
export function LoadingOverlay({ label }: { label: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="absolute inset-0 z-10 flex items-start justify-center rounded-lg bg-card/65 pt-24 backdrop-blur-[1px]"
    >
      <span className="inline-flex items-center gap-2 rounded-full border border-border bg-card px-4 py-2 text-sm font-medium text-foreground shadow-overlay">
        <LoaderCircle aria-hidden="true" className="size-4 animate-spin text-primary" />
        {label}
      </span>
    </div>
  );
}

/** The first load of a list: the loading text in place of the rows. */
export function ListLoading({ label }: { label: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex min-h-64 flex-col items-center justify-center gap-3 rounded-lg border border-border bg-card text-muted-foreground shadow-card"
    >
      <LoaderCircle aria-hidden="true" className="size-7 animate-spin text-primary" />
      <span className="text-sm">{label}</span>
    </div>
  );
}
