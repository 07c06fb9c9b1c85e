import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';
import { Card } from './card.tsx';

export interface EmptyStateProps {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  className?: string;
}

/** A centred card for empty, placeholder and not-found states. */
export function EmptyState({ icon, title, children, className }: EmptyStateProps) {
  return (
    <Card className={cn('flex flex-col items-center px-6 py-14 text-center', className)}>
      {icon ? (
        <div className="mb-4 grid size-14 place-content-center rounded-full bg-primary-soft text-primary [&_svg]:size-7">
          {icon}
        </div>
      ) : null}
      <h2 className="text-lg font-semibold">{title}</h2>
      {children ? <div className="mt-2 max-w-md text-sm text-muted-foreground">{children}</div> : null}
    </Card>
  );
}
