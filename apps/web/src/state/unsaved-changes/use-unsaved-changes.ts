import { useEffect, useId } from 'react';
import { DIRTY_FLAG_DEBOUNCE_MS, useNavigationGuard } from './unsaved-changes-context.ts';

/**
 * An editing screen calls this with its dirty flag. The flag reaches the guard after 50 ms
 * (docs/spec-notes.md, Web: Navigation guard), so that a burst of edits or a save that clears it does not flicker the guard; unmounting
 * clears it at once.
 */
export function useUnsavedChanges(dirty: boolean): void {
  const id = useId();
  const { setDirty } = useNavigationGuard();

  useEffect(() => {
    const timer = setTimeout(() => setDirty(id, dirty), DIRTY_FLAG_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [id, dirty, setDirty]);

  useEffect(() => () => setDirty(id, false), [id, setDirty]);
}
