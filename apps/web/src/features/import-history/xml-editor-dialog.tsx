import { useCallback, useEffect, useId, useState } from 'react';
import type { TSyncHistoryRow } from '@synchro/contracts';
import { errorDetail } from '../../lib/api-client.ts';
import { saveFile } from '../../lib/save-file.ts';
import { ConfirmDialog } from '../../components/ui/alert-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { SearchInput } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { LoadingState } from '../../components/ui/spinner.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { listTime } from '../../components/history/list-time.ts';
import { useUnsavedChanges } from '../../state/unsaved-changes/use-unsaved-changes.ts';
import { formatByteSize } from '../../lib/format.ts';
import { fetchRecordXml, saveRecordXml } from './history-api.ts';
import { HISTORY_TEXT } from './history-messages.ts';
import { base64ToBlob, openRecord, type OpenedRecord, type RecordAttachment } from './record-document.ts';
import { XmlFields } from './xml-fields.tsx';
import { prepareXml, xmlSaveErrorMessage } from './xml-save.ts';

/** Resolves once the browser has painted what was just rendered (a spinner before a long step). */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') {
      requestAnimationFrame(() => setTimeout(resolve, 0));
    } else setTimeout(resolve, 0);
  });
}

type Loaded = { record: OpenedRecord; sizeBytes: number };

export interface XmlEditorDialogProps {
  row: TSyncHistoryRow;
  zone: string;
  onClose: () => void;
}

/**
 * 'Modifier les données XML' (docs/spec-notes.md, Import history and transaction trace): the record's
 * fields grouped by parent, attached documents as name, size and download; save checks 50 MB
 * before sending. Leaving with edits asks first; a load failure closes the dialog with a toast.
 */
export function XmlEditorDialog({ row, zone, onClose }: XmlEditorDialogProps) {
  const id = row.IDInterne;
  const filterId = useId();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [edits, setEdits] = useState<ReadonlyMap<number, string>>(new Map());
  const [filter, setFilter] = useState('');
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [confirmClose, setConfirmClose] = useState(false);
  const dirty = edits.size > 0;
  useUnsavedChanges(dirty);

  useEffect(() => {
    const controller = new AbortController();
    const fail = (message: string) => {
      toast({ title: HISTORY_TEXT.xmlLoadFailed, description: message, variant: 'destructive' });
      onClose();
    };
    fetchRecordXml(id, controller.signal)
      .then(async (answer) => {
        if (controller.signal.aborted) return;
        if (answer.enreg.trim() === '') {
          fail(HISTORY_TEXT.xmlOriginalMissing);
          return;
        }
        await afterPaint();
        if (controller.signal.aborted) return;
        try {
          setLoaded({ record: openRecord(answer.enreg), sizeBytes: answer.sizeBytes });
        } catch (error) {
          fail(errorDetail(error, HISTORY_TEXT.xmlLoadFailed));
        }
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) fail(errorDetail(error, 'Le serveur ne répond pas.'));
      });
    return () => controller.abort();
  }, [id, onClose]);

  const onEdit = useCallback(
    (index: number, value: string) => {
      setSaveError(null);
      setEdits((current) => {
        const next = new Map(current);
        if (loaded?.record.fields[index]?.value === value) next.delete(index);
        else next.set(index, value);
        return next;
      });
    },
    [loaded],
  );

  const requestClose = () => {
    if (saving) return;
    if (dirty) setConfirmClose(true);
    else onClose();
  };

  const download = (attachment: RecordAttachment) => {
    if (!loaded) return;
    const nameIndex = attachment.nameField;
    const name = (
      nameIndex === null ? '' : (edits.get(nameIndex) ?? loaded.record.fields[nameIndex]?.value ?? '')
    ).trim();
    const base64 = loaded.record.attachmentBase64(attachment);
    if (!name || !base64) {
      toast({ title: HISTORY_TEXT.documentMissing, variant: 'destructive' });
      return;
    }
    try {
      saveFile(base64ToBlob(base64), name);
      toast({ title: HISTORY_TEXT.documentDownloaded, description: name });
    } catch {
      toast({ title: HISTORY_TEXT.documentFailed, variant: 'destructive' });
    }
  };

  const save = async () => {
    setSaving(true);
    setSaveError(null);
    await afterPaint();
    const prepared = prepareXml(loaded?.record ?? null, edits);
    if (!prepared.ok) {
      setSaveError(prepared.message);
      setSaving(false);
      return;
    }
    try {
      const answer = await saveRecordXml(id, prepared.xml);
      toast({ title: answer.message });
      setEdits(new Map());
      onClose();
    } catch (error) {
      setSaveError(xmlSaveErrorMessage(error, prepared.sizeBytes));
    } finally {
      setSaving(false);
    }
  };

  const summary = [row.TypeEnreg, row.RefDoc, listTime(row.DateHeure, zone)].filter(Boolean).join(' · ');

  return (
    <>
      <Dialog open onOpenChange={(open) => (open ? undefined : requestClose())}>
        <DialogContent
          className="flex h-[min(92dvh,60rem)] max-w-5xl flex-col gap-0 p-0 max-sm:h-dvh max-sm:w-full max-sm:rounded-none"
          aria-busy={loaded === null || saving}
        >
          <DialogHeader className="border-b border-border px-6 pt-5 pb-4">
            <DialogTitle>{HISTORY_TEXT.xmlTitle}</DialogTitle>
            <DialogDescription>
              {summary}
              {loaded ? ` · ${formatByteSize(loaded.sizeBytes)}` : null}
            </DialogDescription>
          </DialogHeader>
          {loaded === null ? (
            <LoadingState label={HISTORY_TEXT.xmlLoading} className="flex-1" />
          ) : (
            <>
              <div className="flex flex-wrap items-center gap-3 border-b border-border px-6 py-3">
                <Label htmlFor={filterId} className="sr-only">
                  Filtrer les champs
                </Label>
                <SearchInput
                  id={filterId}
                  wrapperClassName="min-w-48 flex-1 sm:max-w-sm"
                  className="h-9"
                  placeholder="Filtrer les champs (nom ou valeur)"
                  value={filter}
                  onChange={(event) => setFilter(event.target.value)}
                />
                <p className="text-xs text-muted-foreground">
                  {loaded.record.fields.length} champs · {loaded.record.groups.length} groupes
                  {loaded.record.attachments.some((a) => a.isDocument) ? ' · documents joints' : ''}
                </p>
              </div>
              <div className="min-h-0 flex-1 overflow-y-auto px-6 pb-6" data-testid="xml-fields">
                <XmlFields
                  record={loaded.record}
                  edits={edits}
                  filter={filter}
                  onEdit={onEdit}
                  onDownload={download}
                />
              </div>
            </>
          )}
          <div className="flex flex-col gap-3 border-t border-border px-6 py-4 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0 text-sm">
              {saveError ? (
                <p role="alert" className="font-medium text-destructive">
                  {saveError}
                </p>
              ) : (
                <p className="text-muted-foreground" aria-live="polite">
                  {dirty
                    ? `${edits.size} champ${edits.size > 1 ? 's' : ''} modifié${edits.size > 1 ? 's' : ''}`
                    : 'Aucune modification'}
                </p>
              )}
            </div>
            <div className="grid grid-cols-2 gap-2 sm:flex">
              <Button variant="outline" disabled={saving} onClick={requestClose}>
                Annuler
              </Button>
              <Button busy={saving} disabled={!dirty || loaded === null} onClick={() => void save()}>
                {saving ? 'Enregistrement...' : 'Enregistrer'}
              </Button>
            </div>
          </div>
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={confirmClose}
        title="Modifications non sauvegardées"
        description={
          'Les modifications des données XML ne sont pas sauvegardées. Voulez-vous fermer sans sauvegarder\u202f?'
        }
        cancelLabel="Continuer la modification"
        confirmLabel="Fermer sans sauvegarder"
        onCancel={() => setConfirmClose(false)}
        onConfirm={() => {
          setConfirmClose(false);
          setEdits(new Map());
          onClose();
        }}
      />
    </>
  );
}
