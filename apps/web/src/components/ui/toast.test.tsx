import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { Toaster } from './toast.tsx';
import { toast } from './toast-store.ts';

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
});
