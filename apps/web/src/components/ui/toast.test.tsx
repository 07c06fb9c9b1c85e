import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Toaster } from './toast.tsx';
import { getToast, toast } from './toast-store.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** jsdom has no PointerEvent: a mouse event of the pointer type carries the position and the button. */
const pointer = (target: Element, type: 'pointerdown' | 'pointermove' | 'pointerup', clientX: number) =>
  fireEvent(
    target,
    new MouseEvent(type, { bubbles: true, cancelable: true, button: 0, clientX, clientY: 0 }),
  );

/** Presses on the toast, moves the pointer `dx` px sideways in one step and lets go. */
function swipe(target: Element, dx: number) {
  pointer(target, 'pointerdown', 100);
  pointer(target, 'pointermove', 100 + dx);
  pointer(target, 'pointerup', 100 + dx);
}

describe('toasts', () => {
  it('shows one toast at a time: a new one replaces the current one', async () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Premier', description: 'un' });
    });
    expect(await screen.findByText('Premier')).toBeInTheDocument();
    act(() => {
      toast({ title: 'Second', description: 'deux', variant: 'destructive' });
    });
    expect(await screen.findByText('Second')).toBeInTheDocument();
    expect(screen.queryByText('Premier')).not.toBeInTheDocument();
    expect(screen.getByText('deux').closest('[data-variant]')).toHaveAttribute('data-variant', 'destructive');
  });

  it('F8 moves the focus to the notifications area', async () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Bonjour' });
    });
    await screen.findByText('Bonjour');
    act(() => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'F8', code: 'F8', bubbles: true }));
    });
    const region = screen.getByRole('region', { name: /Notifications \(F8\)/ });
    expect(region).toContainElement(document.activeElement as HTMLElement);
    expect(document.activeElement).not.toBe(document.body);
  });

  it('closes a toast after 5 s on screen, not before', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => {
      toast({ title: 'Cinq secondes' });
    });
    expect(screen.getByText('Cinq secondes')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(4999);
    });
    expect(screen.getByText('Cinq secondes')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByText('Cinq secondes')).not.toBeInTheDocument();
  });

  it('closes on a swipe to the right longer than 50 px, not on 50 px nor to the left', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Glisser' });
    });
    const item = screen.getByText('Glisser').closest('li')!;
    expect(item).toHaveAttribute('data-swipe-direction', 'right');

    swipe(item, -120);
    expect(screen.getByText('Glisser')).toBeInTheDocument();
    swipe(item, 50);
    expect(item).toHaveAttribute('data-swipe', 'cancel');
    expect(screen.getByText('Glisser')).toBeInTheDocument();
    swipe(item, 51);
    expect(screen.queryByText('Glisser')).not.toBeInTheDocument();
  });

  it('keeps a dismissed toast in the store for 1,000,000 ms, then removes it', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => {
      toast({ title: 'Fermé' });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Fermer la notification' }));
    expect(screen.queryByText('Fermé')).not.toBeInTheDocument();
    expect(getToast()).toMatchObject({ title: 'Fermé', open: false });
    act(() => {
      vi.advanceTimersByTime(999_999);
    });
    expect(getToast()).toMatchObject({ title: 'Fermé', open: false });
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(getToast()).toBeNull();
  });

  it('the notifications area is at most 420 px wide from medium screens up', () => {
    render(<Toaster />);
    const region = screen.getByRole('region', { name: /Notifications \(F8\)/ });
    const viewport = region.querySelector('ol');
    expect(viewport).toHaveClass('w-full', 'md:max-w-[420px]');
  });
});
