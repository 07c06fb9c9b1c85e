import { useLayoutEffect, type RefObject } from 'react';
import { useRouter } from 'wouter';
import { useBrowserLocation } from 'wouter/use-browser-location';

interface HistoryEntry {
  href: string;
  state: unknown;
}

const currentEntry = (): HistoryEntry => ({ href: window.location.href, state: window.history.state });

/** Same screen: only the fragment differs (the skip link, an in-page anchor). */
function sameScreen(a: string, b: string): boolean {
  const from = new URL(a);
  const to = new URL(b);
  return from.pathname === to.pathname && from.search === to.search;
}

interface HistoryGuardOptions {
  /** True while an editor holds unsaved changes. */
  isDirty: () => boolean;
  /** True while the confirmation dialog is open. */
  confirmOpen: RefObject<boolean>;
  /** The guard's `requestNavigation` (dialog and 200 ms debounce). */
  requestNavigation: (action: () => void) => boolean;
}

/**
 * Browser Back/Forward (`popstate`) while dirty. The History API cannot cancel a traversal, so the
 * guard undoes it before the router sees it:
 *
 * 1. its `popstate` listener is a capture listener on `window`, which runs before wouter's own
 *    listener, and stops the event there, so the router never renders the other screen;
 * 2. it pushes the screen's entry (URL and state) again, synchronously: the address bar shows the
 *    screen being edited, and the entry the user was heading for, in either direction, is now the
 *    one right behind it;
 * 3. it asks through `requestNavigation` (the dialog, the 200 ms debounce); "Quitter sans
 *    sauvegarder" then goes `history.back()`, which lands on that entry and passes through.
 *
 * While the dialog is open, further presses are undone the same way and the dialog stays. Only the
 * browser location (wouter's default) is guarded; a memory location has no Back button. The cost:
 * after a traversal that was undone, the entries that were beyond the screen are replaced by the
 * screen's own entry (the History API has no way to re-insert them).
 */
export function useHistoryGuard({ isDirty, confirmOpen, requestNavigation }: HistoryGuardOptions): void {
  const browser = useRouter().hook === useBrowserLocation;

  // A layout effect, so that the listener exists before the first screen can become dirty. The
  // provider's callbacks are stable: the listener is added once and keeps its place.
  useLayoutEffect(() => {
    if (!browser) return;
    let shown = currentEntry();
    let passNext = false;
    const record = () => {
      shown = currentEntry();
    };

    const onPopState = (event: PopStateEvent) => {
      if (passNext || !isDirty() || sameScreen(shown.href, window.location.href)) {
        passNext = false;
        record();
        return;
      }
      event.stopImmediatePropagation();
      const left = shown;
      window.history.pushState(left.state, '', left.href);
      shown = left;
      if (confirmOpen.current) return;
      requestNavigation(() => {
        passNext = true;
        window.history.back();
      });
    };

    window.addEventListener('popstate', onPopState, { capture: true });
    // wouter's history patch announces its pushState/replaceState calls with these events.
    window.addEventListener('pushState', record);
    window.addEventListener('replaceState', record);
    return () => {
      window.removeEventListener('popstate', onPopState, { capture: true });
      window.removeEventListener('pushState', record);
      window.removeEventListener('replaceState', record);
    };
  }, [browser, isDirty, confirmOpen, requestNavigation]);
}
