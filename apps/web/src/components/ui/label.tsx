import type { ComponentProps } from 'react';
import { Label as LabelPrimitive } from 'radix-ui';
import { cn } from '../../lib/cn.ts';

export function Label({ className, ...props }: ComponentProps<typeof LabelPrimitive.Root>) {
  return (
    <LabelPrimitive.Root
      className={cn(
        'text-sm leading-none font-medium text-foreground select-none peer-disabled:cursor-not-allowed peer-disabled:opacity-60',
        className,
      )}
      {...props}
    />
  );
}

/** A message tied to a field through aria-describedby. */
export function FieldMessage({ className, ...props }: ComponentProps<'p'>) {
  return <p className={cn('text-[0.8125rem] leading-snug text-destructive', className)} {...props} />;
}

export function FieldHint({ className, ...props }: ComponentProps<'p'>) {
  return <p className={cn('text-[0.8125rem] leading-snug text-muted-foreground', className)} {...props} />;
}
