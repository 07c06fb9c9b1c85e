import { SidebarTrigger } from '../../components/ui/sidebar.tsx';
import { useAuth } from '../../state/auth/auth-context.ts';
import { softwareNameFromTablettes } from '../../lib/software-name.ts';
import { LogoutButton } from './logout-button.tsx';
import { ServerIpButton } from './server-ip-button.tsx';

export function AppHeader() {
  const { user } = useAuth();
  const software = softwareNameFromTablettes(user?.Tablettes);
  return (
    <header className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-3 border-b border-border bg-card/95 px-3 backdrop-blur supports-[backdrop-filter]:bg-card/80 sm:px-5">
      <SidebarTrigger />
      <div className="h-6 w-px bg-border" aria-hidden="true" />
      <div className="grid min-w-0 flex-1 leading-tight">
        <span className="truncate text-[0.9375rem] font-semibold text-foreground">Connecteur Synchro</span>
        <span className="truncate text-[0.8125rem] text-muted-foreground">Synchro pour {software}</span>
      </div>
      <div className="flex items-center gap-1.5 sm:gap-2">
        <ServerIpButton />
        <LogoutButton />
      </div>
    </header>
  );
}
