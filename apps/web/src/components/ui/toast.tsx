import { useEffect, useSyncExternalStore } from 'react';
import { Toast as ToastPrimitive } from 'radix-ui';
import { CircleAlert, CircleCheck, X } from 'lucide-react';
import { cn } from '../../lib/cn.ts';
import { dismissToast, getToast, removeToast, subscribeToasts } from './toast-store.ts';

/** 5 s on screen, swipe right past 50 px to dismiss, F8 focuses the viewport (docs/spec-notes.md, Web: Toasts and tooltips). */
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = ['F8'];
/** Removal delay after a dismissal (1,000,000 ms, same place); the exit animation is done long before. */
const TOAST_REMOVE_DELAY_MS = 1_000_000;

export function Toaster() {
  const message = useSyncExternalStore(subscribeToasts, getToast, getToast);

  useEffect(() => {
    if (!message || message.open) return;
    const timer = setTimeout(() => removeToast(message.id), TOAST_REMOVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [message]);

  const destructive = message?.variant === 'destructive';
  const Icon = destructive ? CircleAlert : CircleCheck;

  return (
    <ToastPrimitive.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
      label="Notification"
    >
      {message ? (
        <ToastPrimitive.Root
          key={message.id}
          open={message.open}
          onOpenChange={(open) => {
            if (!open) dismissToast(message.id);
          }}
          type={destructive ? 'foreground' : 'background'}
          {...(message.duration !== undefined ? { duration: message.duration } : {})}
          className={cn(
            'group pointer-events-auto relative flex w-full items-start gap-3 overflow-hidden rounded-lg border p-4 pr-10 shadow-overlay',
            'data-[state=open]:animate-toast-in data-[state=closed]:animate-toast-out data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform data-[swipe=end]:animate-toast-out data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x)',
            destructive
              ? 'border-destructive bg-destructive text-destructive-foreground'
              : 'border-border bg-card text-card-foreground',
          )}
          data-variant={message.variant}
        >
          <Icon
            aria-hidden="true"
            className={cn('mt-0.5 size-5 shrink-0', destructive ? 'text-white' : 'text-success')}
          />
          <div className="grid min-w-0 gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{message.title}</ToastPrimitive.Title>
            {message.description ? (
              <ToastPrimitive.Description
                className={cn(
                  'text-sm break-words whitespace-pre-line',
                  destructive ? 'text-white/90' : 'text-muted-foreground',
                )}
              >
                {message.description}
              </ToastPrimitive.Description>
            ) : null}
            {message.action ? (
              <ToastPrimitive.Action
                altText={message.action.altText}
                onClick={message.action.onClick}
                className={cn(
                  'mt-1 inline-flex h-8 w-fit items-center rounded-md border px-3 text-[0.8125rem] font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2',
                  destructive
                    ? 'border-white/70 text-white hover:bg-white/15 focus-visible:outline-white'
                    : 'border-input text-foreground hover:bg-muted focus-visible:outline-ring',
                )}
              >
                {message.action.label}
              </ToastPrimitive.Action>
            ) : null}
          </div>
          <ToastPrimitive.Close
            className={cn(
              'absolute top-3 right-3 rounded-md p-1 opacity-80 transition-opacity hover:opacity-100 focus-visible:outline-2',
              destructive
                ? 'text-white focus-visible:outline-white'
                : 'text-muted-foreground focus-visible:outline-ring',
            )}
            aria-label="Fermer la notification"
          >
            <X aria-hidden="true" className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ) : null}
      <ToastPrimitive.Viewport
        hotkey={TOAST_HOTKEY}
        label="Notifications ({hotkey})"
        className="fixed right-0 bottom-(--save-bar-height,0px) z-[100] flex max-h-screen w-full flex-col-reverse gap-2 p-4 outline-none md:max-w-[420px]"
      />
    </ToastPrimitive.Provider>
  );
}
