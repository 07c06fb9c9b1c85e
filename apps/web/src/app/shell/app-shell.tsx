import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { SidebarInset, SidebarProvider } from '../../components/ui/sidebar.tsx';
import { AppHeader } from './app-header.tsx';
import { AppSidebar } from './app-sidebar.tsx';
import { ConnectionBanner } from './connection-banner.tsx';
import { useLiveEvents } from './live-events.ts';

export const MAIN_CONTENT_ID = 'contenu-principal';

/** The signed-in layout: skip link, side menu, header and the screen. */
export default function AppShell({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(location);
  useLiveEvents();

  // After an in-app navigation, focus moves to the new screen (as a page load would reset it), so
  // that keyboard and screen-reader users start reading at its title.
  useEffect(() => {
    if (location === firstPath.current) return;
    firstPath.current = '';
    mainRef.current?.focus({ preventScroll: true });
  }, [location]);

  return (
    <SidebarProvider>
      <a
        href={`#${MAIN_CONTENT_ID}`}
        className="sr-only z-[60] rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Aller au contenu principal
      </a>
      <AppSidebar />
      <SidebarInset>
        <AppHeader />
        <ConnectionBanner />
        <main
          ref={mainRef}
          id={MAIN_CONTENT_ID}
          tabIndex={-1}
          className="flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-8 lg:py-8"
        >
          <div className="mx-auto w-full max-w-6xl">{children}</div>
        </main>
      </SidebarInset>
    </SidebarProvider>
  );
}
