/**
 * The toast queue (docs/spec-notes.md, Web: Toasts and tooltips): one toast visible at a time, a new toast replaces
 * the current one.
 * A module-level store so that any code (mutations, event handlers) can raise a toast.
 */
export type ToastVariant = 'default' | 'destructive';

/** A button in the toast (e.g. 'Recharger'); `altText` tells screen-reader users how else to do it. */
export interface ToastAction {
  label: string;
  altText: string;
  onClick: () => void;
}

export interface ToastMessage {
  id: number;
  title: string;
  description?: string | undefined;
  variant: ToastVariant;
  open: boolean;
  action?: ToastAction | undefined;
  /** Time on screen in ms; default TOAST_DURATION_MS (a toast with an action stays until closed). */
  duration?: number | undefined;
}

export interface ToastInput {
  title: string;
  description?: string | undefined;
  variant?: ToastVariant;
  action?: ToastAction | undefined;
  duration?: number | undefined;
}

let current: ToastMessage | null = null;
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function toast(input: ToastInput): number {
  const id = nextId++;
  current = {
    id,
    title: input.title,
    description: input.description,
    variant: input.variant ?? 'default',
    open: true,
    action: input.action,
    duration: input.duration,
  };
  emit();
  return id;
}

/** Closes the toast (it stays mounted for its exit animation until removed). */
export function dismissToast(id?: number): void {
  if (current && (id === undefined || current.id === id)) {
    current = { ...current, open: false };
    emit();
  }
}

export function removeToast(id: number): void {
  if (current?.id === id) {
    current = null;
    emit();
  }
}

export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToast(): ToastMessage | null {
  return current;
}
