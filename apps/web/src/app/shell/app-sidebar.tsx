import { Link, useLocation } from 'wouter';
import { Logo } from '../../components/ui/logo.tsx';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
} from '../../components/ui/sidebar.tsx';
import { useSidebar } from '../../components/ui/sidebar-context.ts';
import { useAuth } from '../../state/auth/auth-context.ts';
import { MENU_ENTRIES } from '../navigation.ts';

export function AppSidebar() {
  const [location] = useLocation();
  const { isMobile, setOpenMobile } = useSidebar();
  const { user } = useAuth();

  return (
    <Sidebar label="Menu principal">
      <SidebarHeader className="h-16 flex-row items-center gap-2.5 border-b border-sidebar-border px-3 group-data-[state=collapsed]/sidebar:justify-center group-data-[state=collapsed]/sidebar:px-1.5">
        <Logo className="size-8" />
        <div className="grid leading-tight group-data-[state=collapsed]/sidebar:sr-only">
          <span className="text-[0.9375rem] font-semibold text-white">Synchro</span>
          <span className="text-xs text-sidebar-muted">Console d'administration</span>
        </div>
      </SidebarHeader>
      <SidebarContent>
        <nav aria-label="Écrans de la console">
          <SidebarGroupLabel>Configuration</SidebarGroupLabel>
          <SidebarMenu>
            {MENU_ENTRIES.map((entry) => {
              const active = entry.isActive(location);
              const Icon = entry.icon;
              return (
                <SidebarMenuItem key={entry.href}>
                  <SidebarMenuButton asChild tooltip={entry.label}>
                    <Link
                      href={entry.href}
                      aria-current={active ? 'page' : undefined}
                      onClick={() => {
                        if (isMobile) setOpenMobile(false);
                      }}
                    >
                      <Icon aria-hidden="true" />
                      <span>{entry.label}</span>
                    </Link>
                  </SidebarMenuButton>
                </SidebarMenuItem>
              );
            })}
          </SidebarMenu>
        </nav>
      </SidebarContent>
      {user ? (
        <SidebarFooter className="group-data-[state=collapsed]/sidebar:hidden">
          <div className="rounded-md bg-sidebar-accent px-3 py-2">
            <div className="text-[0.6875rem] font-semibold tracking-[0.08em] text-sidebar-muted uppercase">
              ID de synchronisation
            </div>
            <div className="truncate font-mono text-sm text-white">{user.IDSynchro}</div>
          </div>
        </SidebarFooter>
      ) : null}
    </Sidebar>
  );
}
