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
  /** Inside a dialog or a panel: tighter, its title a level lower (h3). */
  compact?: boolean;
  className?: string;
}

/** A load failure: what failed, why, and a 'Réessayer' button. */
export function ErrorState({
  title,
  message,
  onRetry,
  retrying = false,
  technical,
  compact = false,
  className,
}: ErrorStateProps) {
  const Title = compact ? 'h3' : 'h2';
  return (
    <Card
      role="alert"
      className={cn(
        'flex flex-col items-center px-6 text-center',
        compact ? 'py-6 shadow-none' : 'py-12',
        className,
      )}
    >
      <div
        className={cn(
          'grid place-content-center rounded-full bg-destructive-soft text-destructive',
          compact ? 'mb-3 size-10 [&_svg]:size-5' : 'mb-4 size-12 [&_svg]:size-6',
        )}
      >
        <CircleAlert aria-hidden="true" />
      </div>
      <Title className={cn('font-semibold', compact ? 'text-base' : 'text-lg')}>{title}</Title>
      <p className="mt-2 max-w-md text-sm break-words text-muted-foreground">{message}</p>
      {technical ? (
        <p className="mt-1 font-mono text-xs break-words text-muted-foreground">{technical}</p>
      ) : null}
      <Button
        variant="outline"
        size={compact ? 'sm' : 'md'}
        className={compact ? 'mt-4' : 'mt-5'}
        busy={retrying}
        onClick={onRetry}
      >
        {retrying ? null : <RotateCw aria-hidden="true" />}
        Réessayer
      </Button>
    </Card>
  );
}
