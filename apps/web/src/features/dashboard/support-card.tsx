import type { ReactNode } from 'react';
import { ExternalLink, Globe, Headset, LifeBuoy, UserRound } from 'lucide-react';
import { SectionCard } from '../../components/ui/section-card.tsx';
import { NNBSP } from '../../lib/format.ts';
import type { TSupportLinks } from '@synchro/contracts';
import { supportLinks, type SupportLink } from './support-links.ts';

const SUPPORT_ICONS: Record<SupportLink['key'], ReactNode> = {
  remote: <Headset aria-hidden="true" />,
  support: <LifeBuoy aria-hidden="true" />,
  customer: <UserRound aria-hidden="true" />,
  editor: <Globe aria-hidden="true" />,
};

export function SupportCard({ links: configured }: { links: TSupportLinks }) {
  const links = supportLinks(configured);
  if (links.length === 0) return null;
  return (
    <SectionCard
      title="Assistance"
      description={`Besoin d'aide${NNBSP}? Nos équipes vous accompagnent.`}
      icon={<LifeBuoy aria-hidden="true" />}
    >
      <ul className="grid gap-2 sm:grid-cols-2 xl:grid-cols-1">
        {links.map((link) => (
          <li key={link.key}>
            <a
              href={link.href}
              target="_blank"
              rel="noopener noreferrer"
              className="group flex h-full items-start gap-3 rounded-md border border-border px-3 py-2.5 transition-colors hover:border-primary/40 hover:bg-primary-soft/50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            >
              <span className="mt-0.5 text-primary [&_svg]:size-[1.125rem]">{SUPPORT_ICONS[link.key]}</span>
              <span className="grid min-w-0 gap-0.5">
                <span className="flex items-center gap-1.5 text-sm font-medium text-foreground">
                  {link.label}
                  <ExternalLink aria-hidden="true" className="size-3.5 text-muted-foreground" />
                  <span className="sr-only">(nouvel onglet)</span>
                </span>
                <span className="text-xs text-muted-foreground">{link.description}</span>
              </span>
            </a>
          </li>
        ))}
      </ul>
    </SectionCard>
  );
}
