import {
  CalendarClock,
  CalendarDays,
  ClipboardList,
  FileClock,
  Database,
  History,
  LayoutDashboard,
  Link2,
  ListChecks,
  ListFilter,
  ScrollText,
  SlidersHorizontal,
  TabletSmartphone,
  type LucideIcon,
} from 'lucide-react';

export interface MenuEntry {
  label: string;
  href: string;
  icon: LucideIcon;
  /** Active for this path? (Exclusions: any path starting with /exclusions.) */
  isActive: (path: string) => boolean;
}

const exact = (href: string) => (path: string) => path === href;

/**
 * The side menu, in its order (docs/spec-notes.md, Web: Routes and menu), then the configuration
 * history and the audit journal. /debug has no entry.
 */
export const MENU_ENTRIES: readonly MenuEntry[] = [
  { label: 'Général', href: '/', icon: LayoutDashboard, isActive: exact('/') },
  { label: 'Base de données source', href: '/database', icon: Database, isActive: exact('/database') },
  { label: 'Liaisons externes', href: '/external-links', icon: Link2, isActive: exact('/external-links') },
  {
    label: 'Agendas externes',
    href: '/external-calendars',
    icon: CalendarDays,
    isActive: exact('/external-calendars'),
  },
  { label: 'Données à synchroniser', href: '/sync-data', icon: ListChecks, isActive: exact('/sync-data') },
  {
    label: 'Exclusions de la synchro',
    href: '/exclusions/family',
    icon: ListFilter,
    isActive: (path) => path === '/exclusions' || path.startsWith('/exclusions/'),
  },
  { label: 'Complément', href: '/complement', icon: SlidersHorizontal, isActive: exact('/complement') },
  { label: 'Planification', href: '/planning', icon: CalendarClock, isActive: exact('/planning') },
  { label: 'Terminaux', href: '/terminals', icon: TabletSmartphone, isActive: exact('/terminals') },
  {
    label: "Historique d'importation",
    href: '/import-history',
    icon: History,
    isActive: exact('/import-history'),
  },
  {
    label: 'Trace des transactions',
    href: '/transaction-logs',
    icon: ScrollText,
    isActive: exact('/transaction-logs'),
  },
  // After the eleven entries of the spec: who changed what (docs/web.md, Historique de la configuration).
  {
    label: 'Historique de la configuration',
    href: '/configuration-history',
    icon: FileClock,
    isActive: exact('/configuration-history'),
  },
  { label: "Journal d'audit", href: '/audit', icon: ClipboardList, isActive: exact('/audit') },
];
