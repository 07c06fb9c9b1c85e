import { useId, useState } from 'react';
import type { TConfigVersionRow, THistorySection } from '@synchro/contracts';
import { Button } from '../../components/ui/button.tsx';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { Label } from '../../components/ui/label.tsx';
import { LoadingState } from '../../components/ui/spinner.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { ApiError, errorDetail } from '../../lib/api-client.ts';
import { useRestore, useVersionChanges } from './config-history-api.ts';

export interface RestoreDialogProps {
  row: TConfigVersionRow | null;
  /**
   * The current version the screen shows when the dialog opens: sent as If-Match, kept as it was
   * at opening, so that a write elsewhere meanwhile (which refreshes the screen) makes the
   * restore a 409 instead of applying changes the user has not seen.
   */
  currentVersion: number;
  onClose: () => void;
}

/**
 * « Restaurer »: the sections that differ from the current configuration, all ticked, each with
 * what will change; the restore writes a new version (« Restauration »).
 */
export function RestoreDialog({ row, currentVersion, onClose }: RestoreDialogProps) {
  const version = row?.version ?? null;
  const [seenVersion] = useState(currentVersion);
  const changes = useVersionChanges(version, 'current');
  const sections = changes.data?.sections ?? [];
  // Every differing section is ticked; the page mounts the dialog anew for each version.
  const [unticked, setUnticked] = useState<ReadonlySet<THistorySection>>(new Set());
  const chosen = new Set(sections.map((s) => s.section).filter((s) => !unticked.has(s)));
  const restore = useRestore();
  const baseId = useId();

  const toggle = (s: THistorySection, on: boolean) =>
    setUnticked((prev) => {
      const next = new Set(prev);
      if (on) next.delete(s);
      else next.add(s);
      return next;
    });

  const submit = () => {
    if (version === null) return;
    restore.mutate(
      {
        version,
        current: seenVersion,
        sections: sections.map((s) => s.section).filter((s) => chosen.has(s)),
      },
      {
        onSuccess: (answer) => {
          toast({
            title: 'Restauration',
            description: `${answer.message} Nouvelle version : ${answer.version}.`,
          });
          onClose();
        },
        onError: (error) => {
          toast({
            title: 'Restauration impossible',
            description: errorDetail(error, 'La restauration a échoué.'),
            variant: 'destructive',
            duration: error instanceof ApiError && error.status === 409 ? 10_000 : undefined,
          });
          if (error instanceof ApiError && error.status === 409) onClose();
        },
      },
    );
  };

  return (
    <Dialog open={row !== null} onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent className="max-h-[90svh] max-w-2xl grid-rows-[auto_minmax(0,1fr)_auto] overflow-hidden">
        <DialogHeader>
          <DialogTitle>Restaurer la version {version}</DialogTitle>
          <DialogDescription>
            Les sections cochées reprennent leur état de la version {version}, mots de passe compris. Ce que
            le connecteur écrit (états des connexions, dernière synchronisation, listes) reste tel qu’il est
            aujourd’hui. La restauration crée une nouvelle version.
          </DialogDescription>
        </DialogHeader>
        <div className="grid min-h-0 content-start gap-4 overflow-y-auto pr-1">
          {changes.isPending && version !== null ? (
            <LoadingState label="Comparaison avec la version actuelle…" />
          ) : null}
          {changes.isError ? (
            <p className="text-sm text-destructive">
              {errorDetail(changes.error, 'Comparaison impossible.')}
            </p>
          ) : null}
          {changes.data && sections.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              Cette version est identique à la configuration actuelle.
            </p>
          ) : null}
          {sections.length > 0 ? (
            <fieldset className="grid gap-3">
              <legend className="mb-2 text-sm font-medium">Sections à restaurer et ce qui changera</legend>
              {sections.map((s) => {
                const id = `${baseId}-${s.section}`;
                return (
                  <div key={s.section} className="grid gap-1 rounded-md border border-border p-3">
                    <div className="flex items-center gap-2.5">
                      <Checkbox
                        id={id}
                        checked={chosen.has(s.section)}
                        onCheckedChange={(c) => toggle(s.section, c === true)}
                      />
                      <Label htmlFor={id} className="font-semibold">
                        {s.label}
                      </Label>
                    </div>
                    <ul className="ml-7 grid gap-0.5 text-sm text-muted-foreground">
                      {s.fields.slice(0, 8).map((f, i) => (
                        <li key={`${f.label}-${i}`} className="break-words">
                          {f.secret
                            ? `${f.label}\u00a0: ${f.changed ? 'remis à la valeur de cette version' : 'inchangé'}`
                            : `${f.label}\u00a0: ${f.after || '(vide)'} → ${f.before || '(vide)'}`}
                        </li>
                      ))}
                      {s.fields.length > 8 ? <li>… et {s.fields.length - 8} autres changements</li> : null}
                    </ul>
                  </div>
                );
              })}
            </fieldset>
          ) : null}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Annuler
          </Button>
          <Button
            busy={restore.isPending}
            disabled={chosen.size === 0 || sections.length === 0}
            onClick={submit}
          >
            Restaurer {chosen.size > 1 ? `${chosen.size} sections` : chosen.size === 1 ? 'la section' : ''}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
