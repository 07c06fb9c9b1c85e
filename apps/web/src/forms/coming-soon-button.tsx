import { useId, type ReactNode } from 'react';
import { Button, type ButtonProps } from '../components/ui/button.tsx';
import { Tooltip, TooltipContent, TooltipTrigger } from '../components/ui/tooltip.tsx';
import { cn } from '../lib/cn.ts';

export const COMING_SOON = 'Bientôt disponible';

/**
 * A button whose behaviour is not specified yet: it stays focusable (aria-disabled, not disabled)
 * so that keyboard users reach it and hear why it does nothing, and shows 'Bientôt disponible'.
 */
export function ComingSoonButton({
  children,
  className,
  ...props
}: Omit<ButtonProps, 'onClick' | 'disabled' | 'busy'> & { children: ReactNode }) {
  const hintId = useId();
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          variant="outline"
          {...props}
          aria-disabled="true"
          aria-describedby={hintId}
          className={cn('cursor-not-allowed opacity-60 hover:bg-card', className)}
          onClick={(event) => event.preventDefault()}
        >
          {children}
        </Button>
      </TooltipTrigger>
      <TooltipContent>{COMING_SOON}</TooltipContent>
      <span id={hintId} className="sr-only">
        {COMING_SOON}
      </span>
    </Tooltip>
  );
}
