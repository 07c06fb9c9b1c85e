import { cn } from '../../lib/cn.ts';

/** The product mark: two arrows closing a cycle (synchronisation), on a teal tile. */
export function Logo({ className, title }: { className?: string; title?: string }) {
  return (
    <svg
      viewBox="0 0 32 32"
      className={cn('size-9 shrink-0', className)}
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
      aria-label={title}
      focusable="false"
    >
      <rect width="32" height="32" rx="8" fill="#0f5e6e" />
      <path
        d="M9 12.5a7 7 0 0 1 12.4-3.2M23 19.5a7 7 0 0 1-12.4 3.2"
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinecap="round"
      />
      <path
        d="M22.6 5.8v4.4h-4.4M9.4 26.2v-4.4h4.4"
        fill="none"
        stroke="#5eead4"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
