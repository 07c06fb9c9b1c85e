import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Router, useLocation, useSearch, type AroundNavHandler } from 'wouter';
import { ConfirmDialog } from '../../components/ui/alert-dialog.tsx';
import {
  NAVIGATION_DEBOUNCE_MS,
  UnsavedChangesContext,
  type UnsavedChangesContextValue,
} from './unsaved-changes-context.ts';
import { useHistoryGuard } from './use-history-guard.ts';

const withoutFragment = (to: string) => to.split('#')[0] ?? to;

/**
 * The navigation guard (docs/spec-notes.md, Web: Navigation guard): every in-app navigation (links,
 * `navigate`, logout through `requestNavigation`) asks for confirmation while an editor holds
 * unsaved changes, and one within 200 ms of the previous is ignored. Redirects (`replace`
 * navigations of the router) pass through; a link to the location shown does nothing. Browser Back/Forward go through the same
 * dialog (`useHistoryGuard`). Closing or reloading the tab gets the browser's own warning.
 */
export function UnsavedChangesProvider({ children }: { children: ReactNode }) {
  const dirtyIds = useRef(new Set<string>());
  // The editors whose changes a confirmed leave set aside, until the location changes: a leave
  // that fails (the logout refused) puts them back (resumeGuard), as their editors are still there.
  const setAside = useRef(new Set<string>());
  const [dirtyCount, setDirtyCount] = useState(0);
  const pending = useRef<(() => void) | null>(null);
  const lastNavigation = useRef(Number.NEGATIVE_INFINITY);
  const [confirmOpen, setConfirmOpenState] = useState(false);
  // Read by the popstate listener, which must know at once whether the dialog is already open.
  const confirmOpenRef = useRef(false);
  const setConfirmOpen = useCallback((open: boolean) => {
    confirmOpenRef.current = open;
    setConfirmOpenState(open);
  }, []);

  const setDirty = useCallback((id: string, dirty: boolean) => {
    const ids = dirtyIds.current;
    if (!dirty) setAside.current.delete(id);
    if (dirty === ids.has(id)) return;
    if (dirty) ids.add(id);
    else ids.delete(id);
    setDirtyCount(ids.size);
  }, []);

  const isDirty = useCallback(() => dirtyIds.current.size > 0, []);

  const resumeGuard = useCallback(() => {
    for (const id of setAside.current) dirtyIds.current.add(id);
    setAside.current.clear();
    setDirtyCount(dirtyIds.current.size);
  }, []);

  const requestNavigation = useCallback(
    (action: () => void) => {
      const now = Date.now();
      if (now - lastNavigation.current < NAVIGATION_DEBOUNCE_MS) return false;
      lastNavigation.current = now;
      if (dirtyIds.current.size === 0) {
        action();
        return true;
      }
      pending.current = action;
      setConfirmOpen(true);
      return true;
    },
    [setConfirmOpen],
  );

  useHistoryGuard({ isDirty, confirmOpen: confirmOpenRef, requestNavigation });

  // The location shown, read by aroundNav: a link to it (the menu entry of the current screen) is
  // not a navigation, so it neither asks nor arms the 200 ms debounce.
  const [path] = useLocation();
  const search = useSearch();
  const shown = search ? `${path}?${search}` : path;
  useEffect(() => setAside.current.clear(), [shown]);

  const aroundNav = useCallback<AroundNavHandler>(
    (navigate, to, options) => {
      if (options?.replace) return navigate(to, options);
      if (withoutFragment(to) === shown) return;
      requestNavigation(() => navigate(to, options));
    },
    [requestNavigation, shown],
  );

  useEffect(() => {
    if (dirtyCount === 0) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirtyCount]);

  const confirmLeave = () => {
    const action = pending.current;
    pending.current = null;
    setAside.current = new Set(dirtyIds.current);
    dirtyIds.current.clear();
    setDirtyCount(0);
    setConfirmOpen(false);
    action?.();
  };

  const value = useMemo<UnsavedChangesContextValue>(
    () => ({ setDirty, isDirty, requestNavigation, resumeGuard }),
    [setDirty, isDirty, requestNavigation, resumeGuard],
  );

  return (
    <UnsavedChangesContext.Provider value={value}>
      <Router aroundNav={aroundNav}>{children}</Router>
      <ConfirmDialog
        open={confirmOpen}
        title="Modifications non sauvegardées"
        description={
          'Vous avez des modifications non sauvegardées. Voulez-vous quitter cette page sans sauvegarder\u202f?'
        }
        cancelLabel="Annuler"
        confirmLabel="Quitter sans sauvegarder"
        onCancel={() => {
          pending.current = null;
          setConfirmOpen(false);
        }}
        onConfirm={confirmLeave}
      />
    </UnsavedChangesContext.Provider>
  );
}
