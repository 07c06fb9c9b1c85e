import { HardDrive } from 'lucide-react';
import { STORAGE_WARNING_SHARE, type TDashboardView } from '@synchro/contracts';
import { formatByteSize, NBSP } from '../../lib/format.ts';

const percent = new Intl.NumberFormat('fr-FR', { style: 'percent', maximumFractionDigits: 0 });

/**
 * Général's warning when the installation's storage passes 80 % of its quota (docs/server.md,
 * « Partage équitable »): beyond the quota, the connector's records are refused (507).
 */
export function StorageWarning({ storage }: { storage: TDashboardView['storage'] }) {
  const share = storage.usedBytes / storage.quotaBytes;
  if (share < STORAGE_WARNING_SHARE) return null;
  const full = share >= 1;
  return (
    <div
      role="status"
      className={`flex items-start gap-3 rounded-lg border px-4 py-3 text-sm ${
        full
          ? 'border-destructive/30 bg-destructive-soft text-destructive-soft-foreground'
          : 'border-warning/30 bg-warning-soft text-warning-soft-foreground'
      }`}
    >
      <HardDrive aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <p>
        <strong className="font-semibold">
          {full ? 'Espace de stockage plein' : 'Espace de stockage presque plein'}
          {NBSP}:
        </strong>{' '}
        {formatByteSize(storage.usedBytes)} utilisés sur {formatByteSize(storage.quotaBytes)} (
        {percent.format(Math.min(share, 9.99))}).{' '}
        {full
          ? 'Les nouveaux enregistrements du connecteur sont refusés tant que de la place n’est pas libérée ou le quota augmenté.'
          : 'Au-delà du quota, les nouveaux enregistrements du connecteur seront refusés.'}{' '}
        Contactez votre fournisseur pour augmenter le quota.
      </p>
    </div>
  );
}
