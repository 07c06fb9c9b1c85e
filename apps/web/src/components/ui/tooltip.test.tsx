import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { json, mockApi, renderWithProviders } from '../../test/render-app.tsx';
import { Tooltip, TooltipContent, TooltipTrigger } from './tooltip.tsx';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** jsdom has no PointerEvent: a mouse event of the pointer type is what the trigger listens to. */
const hover = (target: Element) => fireEvent(target, new MouseEvent('pointermove', { bubbles: true }));

const wait = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

const shown = () => screen.queryByRole('tooltip')?.textContent ?? null;

function Hint({ label, text }: { label: string; text: string }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button type="button">{label}</button>
      </TooltipTrigger>
      <TooltipContent>{text}</TooltipContent>
    </Tooltip>
  );
}

describe("the app's tooltips (AppProviders)", () => {
  it('open 700 ms after the pointer comes; the next one opens at once within 300 ms of a close', () => {
    vi.useFakeTimers();
    mockApi({ 'GET /api/user': () => json({ message: 'Non authentifié' }, 401) });
    renderWithProviders(
      <>
        <Hint label="Premier" text="Aide du premier" />
        <Hint label="Deuxième" text="Aide du deuxième" />
        <Hint label="Troisième" text="Aide du troisième" />
      </>,
    );

    hover(screen.getByRole('button', { name: 'Premier' }));
    wait(600);
    expect(shown()).toBeNull();
    wait(99);
    expect(shown()).toBeNull();
    wait(1);
    expect(shown()).toBe('Aide du premier');

    // Closed (a click on its trigger): for 300 ms, the next tooltip needs no delay.
    fireEvent.click(screen.getByRole('button', { name: 'Premier' }));
    expect(shown()).toBeNull();
    wait(299);
    hover(screen.getByRole('button', { name: 'Deuxième' }));
    expect(shown()).toBe('Aide du deuxième');

    // 300 ms after a close, the delay is back.
    fireEvent.click(screen.getByRole('button', { name: 'Deuxième' }));
    wait(300);
    hover(screen.getByRole('button', { name: 'Troisième' }));
    expect(shown()).toBeNull();
    wait(699);
    expect(shown()).toBeNull();
    wait(1);
    expect(shown()).toBe('Aide du troisième');
  });
});
