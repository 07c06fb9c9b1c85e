import {
  useCallback,
  useEffect,
  useMemo,
  useState,
  type ComponentProps,
  type CSSProperties,
  type ReactNode,
} from 'react';
import { Dialog as DialogPrimitive, Slot } from 'radix-ui';
import { PanelLeft } from 'lucide-react';
import { cn } from '../../lib/cn.ts';
import { Tooltip, TooltipContent, TooltipTrigger } from './tooltip.tsx';
import { useMediaQuery } from './use-media-query.ts';
import {
  MOBILE_QUERY,
  SIDEBAR_KEYBOARD_SHORTCUT,
  SIDEBAR_WIDTH,
  SIDEBAR_WIDTH_ICON,
  SIDEBAR_WIDTH_MOBILE,
  SidebarContext,
  readSidebarCookie,
  useSidebar,
  writeSidebarCookie,
  type SidebarContextValue,
} from './sidebar-context.ts';

export function SidebarProvider({ children, className }: { children: ReactNode; className?: string }) {
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const [open, setOpenState] = useState(readSidebarCookie);
  const [openMobile, setOpenMobile] = useState(false);

  const setOpen = useCallback((value: boolean) => {
    setOpenState(value);
    writeSidebarCookie(value);
  }, []);

  const toggleSidebar = useCallback(() => {
    if (isMobile) setOpenMobile((value) => !value);
    else setOpen(!open);
  }, [isMobile, open, setOpen]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (
        event.key.toLowerCase() === SIDEBAR_KEYBOARD_SHORTCUT &&
        (event.metaKey || event.ctrlKey) &&
        !event.altKey
      ) {
        event.preventDefault();
        toggleSidebar();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [toggleSidebar]);

  const value = useMemo<SidebarContextValue>(
    () => ({
      open,
      setOpen,
      openMobile,
      setOpenMobile,
      isMobile,
      toggleSidebar,
      state: open ? 'expanded' : 'collapsed',
    }),
    [open, setOpen, openMobile, isMobile, toggleSidebar],
  );

  return (
    <SidebarContext.Provider value={value}>
      <div
        style={
          {
            '--sidebar-width': SIDEBAR_WIDTH,
            '--sidebar-width-icon': SIDEBAR_WIDTH_ICON,
            '--sidebar-width-mobile': SIDEBAR_WIDTH_MOBILE,
          } as CSSProperties
        }
        className={cn('flex min-h-svh w-full', className)}
      >
        {children}
      </div>
    </SidebarContext.Provider>
  );
}

/** The side panel: a column on desktop (collapsible to icons), an off-canvas sheet under 768 px. */
export function Sidebar({
  children,
  label,
  className,
}: {
  children: ReactNode;
  label: string;
  className?: string;
}) {
  const { isMobile, state, openMobile, setOpenMobile } = useSidebar();

  if (isMobile) {
    return (
      <DialogPrimitive.Root open={openMobile} onOpenChange={setOpenMobile}>
        <DialogPrimitive.Portal>
          <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-[#0b1722]/55 data-[state=open]:animate-fade-in" />
          <DialogPrimitive.Content
            aria-describedby={undefined}
            data-mobile="true"
            data-state="expanded"
            className="group/sidebar fixed inset-y-0 left-0 z-50 flex w-(--sidebar-width-mobile) flex-col bg-sidebar text-sidebar-foreground shadow-overlay data-[state=open]:animate-slide-in-left focus:outline-none"
            style={{ '--sidebar-width-mobile': SIDEBAR_WIDTH_MOBILE } as CSSProperties}
          >
            <DialogPrimitive.Title className="sr-only">{label}</DialogPrimitive.Title>
            {children}
          </DialogPrimitive.Content>
        </DialogPrimitive.Portal>
      </DialogPrimitive.Root>
    );
  }

  // The outer column paints the full height of long pages; the panel itself stays in view.
  return (
    <div className="shrink-0 bg-sidebar">
      <aside
        aria-label={label}
        data-state={state}
        className={cn(
          'group/sidebar sticky top-0 flex h-svh flex-col overflow-hidden bg-sidebar text-sidebar-foreground transition-[width] duration-200 ease-out',
          state === 'expanded' ? 'w-(--sidebar-width)' : 'w-(--sidebar-width-icon)',
          className,
        )}
      >
        {children}
      </aside>
    </div>
  );
}

export function SidebarHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-2 p-2', className)} {...props} />;
}

export function SidebarContent({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      className={cn('flex min-h-0 flex-1 flex-col gap-2 overflow-x-hidden overflow-y-auto p-2', className)}
      {...props}
    />
  );
}

export function SidebarFooter({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      className={cn('mt-auto flex flex-col gap-2 border-t border-sidebar-border p-2', className)}
      {...props}
    />
  );
}

export function SidebarGroupLabel({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      className={cn(
        'px-2.5 pt-2 pb-1 text-[0.6875rem] font-semibold tracking-[0.08em] text-sidebar-muted uppercase group-data-[state=collapsed]/sidebar:sr-only',
        className,
      )}
      {...props}
    />
  );
}

export function SidebarMenu({ className, ...props }: ComponentProps<'ul'>) {
  return <ul className={cn('flex w-full min-w-0 flex-col gap-0.5', className)} {...props} />;
}

export function SidebarMenuItem({ className, ...props }: ComponentProps<'li'>) {
  return <li className={cn('relative', className)} {...props} />;
}

const menuButtonClass =
  'flex min-h-9 w-full min-w-0 items-center gap-3 overflow-hidden rounded-md px-2.5 py-1.5 text-left text-sm text-sidebar-foreground transition-colors outline-none hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-sidebar-ring aria-[current=page]:bg-sidebar-active aria-[current=page]:font-medium aria-[current=page]:text-sidebar-accent-foreground aria-[current=page]:shadow-[inset_3px_0_0_var(--color-sidebar-ring)] group-data-[state=collapsed]/sidebar:size-8 group-data-[state=collapsed]/sidebar:min-h-0 group-data-[state=collapsed]/sidebar:justify-center group-data-[state=collapsed]/sidebar:px-0 group-data-[state=collapsed]/sidebar:py-0 [&>span]:leading-snug group-data-[state=collapsed]/sidebar:[&>span]:sr-only [&>svg]:size-[1.125rem] [&>svg]:shrink-0';

/**
 * A menu entry; shows its label in a tooltip when the sidebar is collapsed to icons. A label too
 * long for the spec's 16rem goes on a second line rather than being cut.
 */
export function SidebarMenuButton({
  asChild = false,
  tooltip,
  className,
  ...props
}: ComponentProps<'button'> & { asChild?: boolean; tooltip: string }) {
  const { state, isMobile } = useSidebar();
  const Comp = asChild ? Slot.Root : 'button';
  const button = <Comp className={cn(menuButtonClass, className)} {...props} />;
  if (state !== 'collapsed' || isMobile) return button;
  return (
    <Tooltip>
      <TooltipTrigger asChild>{button}</TooltipTrigger>
      <TooltipContent side="right">{tooltip}</TooltipContent>
    </Tooltip>
  );
}

export function SidebarTrigger({ className }: { className?: string }) {
  const { toggleSidebar, isMobile, open, openMobile } = useSidebar();
  const expanded = isMobile ? openMobile : open;
  return (
    <button
      type="button"
      onClick={toggleSidebar}
      aria-expanded={expanded}
      aria-label={expanded ? 'Réduire le menu' : 'Afficher le menu'}
      aria-keyshortcuts="Control+B Meta+B"
      title={`${expanded ? 'Réduire le menu' : 'Afficher le menu'} (Ctrl+B)`}
      className={cn(
        'inline-flex size-9 items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        className,
      )}
    >
      <PanelLeft aria-hidden="true" className="size-5" />
    </button>
  );
}

export function SidebarInset({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex min-h-svh min-w-0 flex-1 flex-col', className)} {...props} />;
}
