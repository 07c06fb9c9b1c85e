import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { CONFIG_SECTIONS, type TSectionView } from '@synchro/contracts';
import { ConfirmDialog } from '../../components/ui/alert-dialog.tsx';
import { ErrorState } from '../../components/ui/error-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { LoadingState } from '../../components/ui/spinner.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { errorDetail } from '../../lib/api-client.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useConfigSection, useDataLists } from '../../forms/use-config-section.ts';
import { NoTerminalSelected, TerminalEditor } from './terminal-editor.tsx';
import { TerminalList } from './terminal-list.tsx';
import { RecentTransactions, useTerminalsActivity } from './terminal-activity.tsx';
import {
  UNKNOWN_POSITION,
  knownPosition,
  toTerminalForm,
  toTerminalPayload,
  toTerminalsView,
  type TerminalForm,
} from './terminals-form.ts';
import { EDITOR_ID, STACKED_QUERY } from './terminals-layout.ts';

const TITLE = 'Terminaux';

export default function TerminalsPage() {
  usePageTitle(TITLE);
  const [selected, setSelected] = useState<number | null>(null);
  const [switchTo, setSwitchTo] = useState<number | null>(null);

  const toForm = useCallback(
    (view: TSectionView<'terminals'>): TerminalForm | null => {
      const terminal = selected === null ? undefined : view.terminals[selected];
      return terminal && selected !== null ? toTerminalForm(terminal, selected) : null;
    },
    [selected],
  );
  const section = useConfigSection({
    section: 'terminals',
    toForm,
    toPayload: toTerminalPayload,
    toView: toTerminalsView,
  });
  const lists = useDataLists();

  const reveal = useRef(false);
  useEffect(() => {
    if (!reveal.current) return;
    reveal.current = false;
    if (!window.matchMedia?.(STACKED_QUERY).matches) return;
    document.getElementById(EDITOR_ID)?.scrollIntoView?.({ block: 'start' });
  }, [selected]);

  const choose = (position: number) => {
    reveal.current = true;
    setSelected(position);
  };

  const select = (position: number) => {
    if (position === selected) return;
    if (section.dirty) {
      setSwitchTo(position);
      return;
    }
    // A draft left from edits undone by hand belongs to the previous terminal.
    section.discard();
    choose(position);
  };

  const save = () => {
    const form = section.form;
    if (!form || !knownPosition(form)) {
      toast({
        title: CONFIG_SECTIONS.terminals.save.failureTitle,
        description: UNKNOWN_POSITION,
        variant: 'destructive',
      });
      return;
    }
    section.save();
  };

  const terminals = section.query.data?.data.terminals;
  const activityQuery = useTerminalsActivity();
  const activity = activityQuery.data
    ? {
        terminals: activityQuery.data.terminals,
        nowMs: Date.parse(activityQuery.data.now),
        zone: activityQuery.data.zone,
      }
    : null;
  const selectedTerminal = selected === null ? undefined : terminals?.[selected];
  let body: ReactNode;
  if (terminals && lists.data) {
    const form = section.form;
    body = (
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[18rem_minmax(0,1fr)] [&>*]:min-w-0">
        <TerminalList
          terminals={terminals}
          selected={selected}
          onSelect={select}
          activity={activity}
          activityFailed={activityQuery.isError ? { retry: () => void activityQuery.refetch() } : null}
        />
        {form ? (
          <TerminalEditor
            form={form}
            lists={lists.data.data}
            dirty={section.dirty}
            saving={section.saving}
            onChange={section.update}
            onSave={save}
          />
        ) : (
          <NoTerminalSelected />
        )}
        {selectedTerminal && form ? (
          <div className="lg:col-span-2">
            <RecentTransactions terminal={selectedTerminal} />
          </div>
        ) : null}
      </div>
    );
  } else if (section.query.isError || lists.isError) {
    const error = section.query.error ?? lists.error;
    body = (
      <ErrorState
        title="Impossible de charger les terminaux"
        message={errorDetail(error, 'Le serveur ne répond pas.')}
        retrying={section.query.isFetching || lists.isFetching}
        onRetry={() => {
          if (section.query.isError) void section.query.refetch();
          if (lists.isError) void lists.refetch();
        }}
      />
    );
  } else {
    body = <LoadingState label="Chargement des terminaux…" />;
  }

  return (
    <>
      <PageHeader
        title={TITLE}
        description="Utilisateurs, identifiants et fonctionnalités autorisées de chaque terminal."
      />
      {body}
      {/* Switching terminal with unsaved edits asks first (docs/spec-notes.md, Web: Terminaux). */}
      <ConfirmDialog
        open={switchTo !== null}
        title="Modifications non sauvegardées"
        description={
          'Les modifications de ce terminal ne sont pas sauvegardées. Voulez-vous changer de terminal sans les sauvegarder\u202f?'
        }
        cancelLabel="Rester sur ce terminal"
        confirmLabel="Changer sans sauvegarder"
        onCancel={() => setSwitchTo(null)}
        onConfirm={() => {
          section.discard();
          if (switchTo !== null) choose(switchTo);
          setSwitchTo(null);
        }}
      />
    </>
  );
}
