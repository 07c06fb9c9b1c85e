import { Download, FileText, FileWarning } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { formatByteSize } from '../../lib/format.ts';
import type { RecordAttachment } from './record-document.ts';

export interface AttachmentCardProps {
  attachment: RecordAttachment;
  /** The file name as edited now ('' when none). */
  name: string;
  onDownload: () => void;
}

/**
 * An attached document of the record: its name and size and a download button, never its base64
 * in a field. A large value outside a ged/images table is shown with its size only.
 */
export function AttachmentCard({ attachment, name, onDownload }: AttachmentCardProps) {
  if (!attachment.isDocument) {
    return (
      <div className="flex items-center gap-3 rounded-md border border-dashed border-border bg-muted/40 px-3 py-2.5 text-sm sm:col-span-2">
        <FileWarning aria-hidden="true" className="size-5 shrink-0 text-muted-foreground" />
        <p className="min-w-0">
          <span className="font-medium">{attachment.contentElement}</span>
          <span className="text-muted-foreground">
            {' '}
            — valeur de {formatByteSize(attachment.size)}, trop longue pour être modifiée ici (conservée telle
            quelle).
          </span>
        </p>
      </div>
    );
  }
  const shownName = name.trim();
  return (
    <div
      role="group"
      aria-label={`Document joint ${shownName || '(sans nom)'}`}
      className="flex flex-wrap items-center gap-3 rounded-md border border-primary/25 bg-primary-soft/60 px-3 py-2.5 sm:col-span-2"
    >
      <span className="grid size-9 shrink-0 place-content-center rounded-md bg-card text-primary shadow-xs">
        <FileText aria-hidden="true" className="size-5" />
      </span>
      <div className="grid min-w-0 flex-1 basis-40 gap-0.5">
        <span className="text-xs font-semibold text-muted-foreground uppercase">
          Document joint ({attachment.contentElement})
        </span>
        <span className="font-medium break-all">{shownName || 'Sans nom'}</span>
        <span className="text-xs text-muted-foreground">
          {attachment.size > 0 ? formatByteSize(attachment.size) : 'Contenu vide'}
        </span>
      </div>
      <Button variant="outline" size="sm" onClick={onDownload}>
        <Download aria-hidden="true" />
        Télécharger
        <span className="sr-only"> le document {shownName}</span>
      </Button>
    </div>
  );
}
