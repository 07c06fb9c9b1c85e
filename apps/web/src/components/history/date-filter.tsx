import { useId, useRef, useState, type CSSProperties } from 'react';
import { Popover } from 'radix-ui';
import { DayPicker } from 'react-day-picker';
import { fr } from 'react-day-picker/locale';
import 'react-day-picker/style.css';
import { CalendarDays, X } from 'lucide-react';
import { Button } from '../ui/button.tsx';
import { Input } from '../ui/input.tsx';
import { FieldMessage, Label } from '../ui/label.tsx';
import { dateToDay, dayToDate, dayToFrench, parseFrenchDay } from './day-text.ts';

export interface DateFilterProps {
  /** The day chosen, `yyyy-MM-dd`, or null. */
  value: string | null;
  onChange: (day: string | null) => void;
}

/** react-day-picker's variables in the app's colours and sizes. */
const CALENDAR_STYLE = {
  '--rdp-accent-color': 'var(--color-primary)',
  '--rdp-accent-background-color': 'var(--color-primary-soft)',
  '--rdp-today-color': 'var(--color-primary)',
  '--rdp-day-height': '2.5rem',
  '--rdp-day-width': '2.5rem',
  '--rdp-day_button-height': '2.375rem',
  '--rdp-day_button-width': '2.375rem',
  '--rdp-nav_button-height': '2rem',
  '--rdp-nav_button-width': '2rem',
  fontSize: '0.875rem',
} as CSSProperties;

const INVALID_DATE = 'Date invalide\u00a0: saisissez une date au format jj/mm/aaaa.';

/**
 * The date filter of the history screens: typed as jj/mm/aaaa (applied on Enter or on leaving the
 * field) or chosen in a French calendar (weeks from Monday, keyboard: arrows, Page up/down, Home/End),
 * cleared with its button (docs/spec-notes.md, Import history and transaction trace).
 */
export function DateFilter({ value, onChange }: DateFilterProps) {
  const id = useId();
  const [text, setText] = useState(value ? dayToFrench(value) : '');
  const [invalid, setInvalid] = useState(false);
  const [open, setOpen] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  // A day chosen in the calendar or cleared shows in the field.
  const [shownValue, setShownValue] = useState(value);
  if (shownValue !== value) {
    setShownValue(value);
    setText(value ? dayToFrench(value) : '');
    setInvalid(false);
  }

  const applyText = () => {
    const typed = text.trim();
    if (typed === '') {
      setInvalid(false);
      if (value !== null) onChange(null);
      return;
    }
    const day = parseFrenchDay(typed);
    if (!day) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setText(dayToFrench(day));
    if (day !== value) onChange(day);
  };

  const selected = value ? dayToDate(value) : undefined;

  return (
    <div className="grid min-w-0 content-start gap-2">
      <Label htmlFor={id}>Date</Label>
      <div className="flex gap-2">
        <div className="relative min-w-0 flex-1">
          <Input
            ref={inputRef}
            id={id}
            inputMode="numeric"
            autoComplete="off"
            placeholder="jj/mm/aaaa"
            className="pr-9"
            value={text}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? `${id}-error` : undefined}
            onChange={(event) => setText(event.target.value)}
            onBlur={applyText}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                applyText();
              }
            }}
          />
          {value ? (
            <button
              type="button"
              className="absolute top-1/2 right-1.5 grid size-7 -translate-y-1/2 place-content-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
              onClick={() => {
                onChange(null);
                inputRef.current?.focus();
              }}
            >
              <X aria-hidden="true" className="size-4" />
              <span className="sr-only">Effacer la date</span>
            </button>
          ) : null}
        </div>
        <Popover.Root open={open} onOpenChange={setOpen}>
          <Popover.Trigger asChild>
            <Button variant="outline" size="icon" aria-label="Choisir la date dans le calendrier">
              <CalendarDays aria-hidden="true" />
            </Button>
          </Popover.Trigger>
          <Popover.Portal>
            <Popover.Content
              align="end"
              sideOffset={6}
              aria-label="Calendrier"
              className="z-50 rounded-lg border border-border bg-card p-3 shadow-overlay data-[state=open]:animate-fade-in"
            >
              <DayPicker
                mode="single"
                locale={fr}
                weekStartsOn={1}
                captionLayout="dropdown"
                startMonth={new Date(2000, 0)}
                endMonth={new Date(new Date().getFullYear() + 1, 11)}
                defaultMonth={selected}
                selected={selected}
                // The calendar opens on the user's request: its day (selected, else today) takes the focus.
                // eslint-disable-next-line jsx-a11y/no-autofocus
                autoFocus
                style={CALENDAR_STYLE}
                onSelect={(date) => {
                  onChange(date ? dateToDay(date) : null);
                  setOpen(false);
                }}
              />
            </Popover.Content>
          </Popover.Portal>
        </Popover.Root>
      </div>
      {invalid ? <FieldMessage id={`${id}-error`}>{INVALID_DATE}</FieldMessage> : null}
    </div>
  );
}
