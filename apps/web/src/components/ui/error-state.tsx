import { CircleAlert, RotateCw } from 'lucide-react';
import { cn } from '../../lib/cn.ts';
import { Button } from './button.tsx';
import { Card } from './card.tsx';

export interface ErrorStateProps {
  title: string;
  /** The reason (the server's French text). */
  message: string;
  onRetry: () => void;
  /** True while the retry runs: the button shows a spinner. */
  retrying?: boolean;
  /** A technical line under the message (the spec's error code, for support). */
  technical?: string;
  className?: string;
}

/** A load failure: what failed, why, and a 'Réessayer' button. */
export function ErrorState({
  title,
  message,
  onRetry,
  retrying = false,
  technical,
  className,
}: ErrorStateProps) {
  return (
    <Card role="alert" className={cn('flex flex-col items-center px-6 py-12 text-center', className)}>
      <div className="mb-4 grid size-12 place-content-center rounded-full bg-destructive-soft text-destructive [&_svg]:size-6">
        <CircleAlert aria-hidden="true" />
      </div>
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="mt-2 max-w-md text-sm break-words text-muted-foreground">{message}</p>
      {technical ? (
        <p className="mt-1 font-mono text-xs break-words text-muted-foreground">{technical}</p>
      ) : null}
      <Button variant="outline" className="mt-5" busy={retrying} onClick={onRetry}>
        {retrying ? null : <RotateCw aria-hidden="true" />}
        Réessayer
      </Button>
    </Card>
  );
}
