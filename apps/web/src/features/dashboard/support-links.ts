import type { TSupportLinkKey, TSupportLinks } from '@synchro/contracts';

/**
 * The support buttons of the Général screen. Their targets are set on the server when it starts
 * (SUPPORT_*_URL, docs/production.md) and arrive with /api/dashboard; a link not set is not shown.
 */
export interface SupportLink {
  key: TSupportLinkKey;
  label: string;
  description: string;
  href: string;
}

const SUPPORT_TEXTS: readonly Omit<SupportLink, 'href'>[] = [
  {
    key: 'remote',
    label: 'Assistance à distance',
    description: "Téléchargez l'outil de prise en main à distance",
  },
  { key: 'support', label: 'Site support', description: 'Guides, questions fréquentes et tickets' },
  { key: 'customer', label: 'Espace client', description: 'Licences, factures et téléchargements' },
  { key: 'editor', label: "Site de l'éditeur", description: 'Actualités et nouveautés du connecteur' },
];

/** The links this server sets, in the screen's order. */
export function supportLinks(links: TSupportLinks): SupportLink[] {
  return SUPPORT_TEXTS.flatMap((text) => {
    const href = links[text.key];
    return href ? [{ ...text, href }] : [];
  });
}
