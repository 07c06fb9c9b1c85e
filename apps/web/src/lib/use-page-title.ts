import { useEffect } from 'react';

export const APP_NAME = 'Synchro';

/** Sets the document title of the current screen: "<title> – Synchro". */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} – ${APP_NAME}`;
  }, [title]);
}
