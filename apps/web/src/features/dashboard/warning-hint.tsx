import { TriangleAlert } from 'lucide-react';
import { cn } from '../../lib/cn.ts';
import { Tooltip, TooltipContent, TooltipTrigger } from '../../components/ui/tooltip.tsx';

/** A warning icon that can be focused and hovered; its text is both the tooltip and the accessible name. */
export function WarningHint({
  message,
  tone = 'warning',
}: {
  message: string;
  tone?: 'warning' | 'destructive';
}) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button
          type="button"
          aria-label={message}
          className={cn(
            'inline-grid size-6 shrink-0 cursor-help place-content-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring',
            tone === 'destructive'
              ? 'text-destructive hover:bg-destructive-soft'
              : 'text-warning hover:bg-warning-soft',
          )}
        >
          <TriangleAlert aria-hidden="true" className="size-4" />
        </button>
      </TooltipTrigger>
      <TooltipContent>{message}</TooltipContent>
    </Tooltip>
  );
}
