import { createContext, useContext } from 'react';

/** Navigation debounce and unsaved flag debounce (docs/spec-notes.md, Web: Navigation guard). */
export const NAVIGATION_DEBOUNCE_MS = 200;
export const DIRTY_FLAG_DEBOUNCE_MS = 50;

export interface UnsavedChangesContextValue {
  /** Records whether the editor `id` holds unsaved changes. */
  setDirty: (id: string, dirty: boolean) => void;
  /** True when any editor holds unsaved changes. */
  isDirty: () => boolean;
  /**
   * Runs `action` (a navigation, a logout...) unless the user must first confirm leaving unsaved
   * changes; ignored when it comes within 200 ms of the previous one. Returns false when ignored.
   */
  requestNavigation: (action: () => void) => boolean;
  /**
   * The leave just confirmed did not happen (a logout the server refused): the unsaved changes
   * the confirmation set aside are guarded again. Nothing to do once the location has changed.
   */
  resumeGuard: () => void;
}

export const UnsavedChangesContext = createContext<UnsavedChangesContextValue | null>(null);

export function useNavigationGuard(): UnsavedChangesContextValue {
  const value = useContext(UnsavedChangesContext);
  if (!value) throw new Error('useNavigationGuard must be used within an UnsavedChangesProvider');
  return value;
}
