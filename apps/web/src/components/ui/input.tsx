import type { ComponentProps, ReactNode } from 'react';
import { Search } from 'lucide-react';
import { cn } from '../../lib/cn.ts';

export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return (
    <input
      type={type}
      className={cn(
        'flex h-10 w-full min-w-0 rounded-md border border-input bg-card px-3 py-2 text-sm text-foreground shadow-xs transition-[color,box-shadow,border-color] placeholder:text-[#6b7889] focus-visible:border-ring focus-visible:ring-3 focus-visible:ring-ring/35 focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive aria-invalid:ring-destructive/20',
        className,
      )}
      {...props}
    />
  );
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return (
    <textarea
      className={cn(
        'flex min-h-20 w-full rounded-md border border-input bg-card px-3 py-2 text-sm shadow-xs placeholder:text-[#6b7889] focus-visible:border-ring focus-visible:ring-3 focus-visible:ring-ring/35 focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive',
        className,
      )}
      {...props}
    />
  );
}

/**
 * A search field: the input with its magnifier on the left (`type="search"`). `wrapperClassName`
 * sizes the whole; `children` go over the input on the right (a clear button).
 */
export function SearchInput({
  className,
  wrapperClassName,
  children,
  ...props
}: Omit<ComponentProps<'input'>, 'type'> & { wrapperClassName?: string; children?: ReactNode }) {
  return (
    <div className={cn('relative', wrapperClassName)}>
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input type="search" className={cn('pl-9', className)} {...props} />
      {children}
    </div>
  );
}
