/**
 * Targets of the support buttons of the Général screen. The spec leaves them open: each comes from
 * a build-time variable (VITE_SUPPORT_*, see docs/web.md) with a neutral default.
 */
export interface SupportLink {
  key: 'remote' | 'support' | 'customer' | 'editor';
  label: string;
  description: string;
  href: string;
}

const env = import.meta.env;

function pick(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() ? value.trim() : fallback;
}

export const SUPPORT_LINKS: readonly SupportLink[] = [
  {
    key: 'remote',
    label: 'Assistance à distance',
    description: "Téléchargez l'outil de prise en main à distance",
    href: pick(env.VITE_SUPPORT_REMOTE_URL, 'https://anydesk.com/fr/downloads'),
  },
  {
    key: 'support',
    label: 'Site support',
    description: 'Guides, questions fréquentes et tickets',
    href: pick(env.VITE_SUPPORT_SITE_URL, 'https://support.example.com/'),
  },
  {
    key: 'customer',
    label: 'Espace client',
    description: 'Licences, factures et téléchargements',
    href: pick(env.VITE_SUPPORT_CUSTOMER_URL, 'https://clients.example.com/'),
  },
  {
    key: 'editor',
    label: "Site de l'éditeur",
    description: 'Actualités et nouveautés du connecteur',
    href: pick(env.VITE_SUPPORT_EDITOR_URL, 'https://www.example.com/'),
  },
];
