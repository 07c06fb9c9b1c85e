import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from './card.tsx';

export type CardIconTone = 'primary' | 'solid' | 'destructive' | 'success';

const ICON_TONES: Record<CardIconTone, string> = {
  primary: 'bg-primary-soft text-primary',
  solid: 'bg-primary text-primary-foreground',
  destructive: 'bg-destructive-soft text-destructive',
  success: 'bg-success-soft text-success-soft-foreground',
};

/** The square icon tile at the start of a card's header. */
export function CardIcon({ tone = 'primary', children }: { tone?: CardIconTone; children: ReactNode }) {
  return (
    <div
      className={cn(
        'grid size-9 shrink-0 place-content-center rounded-md [&_svg]:size-[1.125rem]',
        ICON_TONES[tone],
      )}
    >
      {children}
    </div>
  );
}

export interface CardHeadingProps {
  title: string;
  description?: ReactNode;
  icon: ReactNode;
  tone?: CardIconTone;
  /** Id of the title (to name the card, or to focus it). */
  titleId?: string;
  /** Id of the description (to describe an action by it). */
  descriptionId?: string;
  descriptionClassName?: string;
  /** The title can take focus from script (tabIndex -1), e.g. to announce a result. */
  focusableTitle?: boolean;
}

/** The heading of a card: icon tile, title, optional description. */
export function CardHeading({
  title,
  description,
  icon,
  tone,
  titleId,
  descriptionId,
  descriptionClassName,
  focusableTitle = false,
}: CardHeadingProps) {
  return (
    <div className="flex items-start gap-3">
      <CardIcon tone={tone}>{icon}</CardIcon>
      <div className="grid min-w-0 gap-0.5">
        <CardTitle
          id={titleId}
          tabIndex={focusableTitle ? -1 : undefined}
          className={focusableTitle ? 'scroll-mt-24 outline-none' : undefined}
        >
          {title}
        </CardTitle>
        {description ? (
          <CardDescription id={descriptionId} className={descriptionClassName}>
            {description}
          </CardDescription>
        ) : null}
      </div>
    </div>
  );
}

/** The highlighted card of a screen's main action (teal tint). */
export function ActionCard({ className, ...props }: ComponentProps<typeof Card>) {
  return (
    <Card
      className={cn('border-primary/25 bg-gradient-to-br from-card to-primary-soft/60', className)}
      {...props}
    />
  );
}

export interface SectionCardProps {
  title: string;
  description?: ReactNode;
  icon: ReactNode;
  tone?: Exclude<CardIconTone, 'solid'>;
  children: ReactNode;
  className?: string;
  /** Id of the title; the card is then a region named by it. */
  titleId?: string;
  /** The title can take focus from script (tabIndex -1), e.g. to announce a result. */
  focusableTitle?: boolean;
}

/** A card of a read-only screen: icon, title, optional description, content. */
export function SectionCard({
  title,
  description,
  icon,
  tone = 'primary',
  children,
  className,
  titleId,
  focusableTitle = false,
}: SectionCardProps) {
  return (
    <Card className={className} aria-labelledby={titleId}>
      <CardHeader>
        <CardHeading
          title={title}
          description={description}
          icon={icon}
          tone={tone}
          titleId={titleId}
          focusableTitle={focusableTitle}
        />
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}
