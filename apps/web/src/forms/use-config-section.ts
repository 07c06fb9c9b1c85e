import { useCallback, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TSaveResponse } from '@synchro/contracts';
import { toast } from '../components/ui/toast-store.ts';
import { ApiError, api, apiRequest, errorDetail } from '../lib/api-client.ts';
import { configSectionPath, queryKeys } from '../lib/query-keys.ts';
import { useUnsavedChanges } from '../state/unsaved-changes/use-unsaved-changes.ts';

export type ConfigSectionName = Parameters<typeof queryKeys.configSection>[0];

/** GET /api/config/<section>: the view and the version it was read from. */
export interface Versioned<V> {
  version: number;
  data: V;
}

export const SAVE_ERROR_TITLE = 'Erreur de sauvegarde';
export const RELOAD_LABEL = 'Recharger';

export interface ConfigSectionOptions<V, F, P> {
  section: ConfigSectionName;
  /** Path of the section save. */
  savePath: string;
  /** Method of the save: POST (default) or PATCH (the terminal save). */
  saveMethod?: 'POST' | 'PATCH';
  /** The form state of a view. */
  toForm: (view: V) => F;
  /** The payload of a form state (spec §7). */
  toPayload: (form: F) => P;
  /** What the server answers after saving `form` (shown until the refetch lands). */
  toView: (form: F, previous: V) => V;
  /** Spec §8: success toast, default text of the failure toast. */
  successMessage: string;
  failureMessage: string;
  /** When given, the success toast has this title and `successMessage` as its description. */
  successTitle?: string;
  /** Title of the failure toasts (default 'Erreur de sauvegarde'). */
  failureTitle?: string;
}

interface Draft<F> {
  form: F;
  /** The form the edits started from, and its version (sent as If-Match). */
  base: F;
  version: number;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * One settings section: its query, the local edits (kept over refetches until saved or
 * discarded), the unsaved-changes flag, and the save with If-Match and the toasts of spec §8. A
 * 409 (someone else changed the section) offers 'Recharger', which discards the edits.
 */
export function useConfigSection<V, F, P>(options: ConfigSectionOptions<V, F, P>) {
  const { section, savePath, toForm, toPayload, toView, successMessage, failureMessage } = options;
  const { saveMethod = 'POST', successTitle, failureTitle = SAVE_ERROR_TITLE } = options;
  const queryClient = useQueryClient();
  const queryKey = queryKeys.configSection(section);
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => api.get<Versioned<V>>(configSectionPath(section), signal),
  });
  const [draft, setDraft] = useState<Draft<F> | null>(null);

  const serverForm = useMemo(() => (query.data ? toForm(query.data.data) : null), [query.data, toForm]);
  const form = draft?.form ?? serverForm;
  const dirty = draft !== null && !same(draft.form, draft.base);
  useUnsavedChanges(dirty);

  const update = useCallback(
    (change: (form: F) => F) => {
      setDraft((current) => {
        if (current) return { ...current, form: change(current.form) };
        if (!serverForm || !query.data) return current;
        return { form: change(serverForm), base: serverForm, version: query.data.version };
      });
    },
    [serverForm, query.data],
  );

  const { refetch } = query;
  const reload = useCallback(() => {
    setDraft(null);
    void refetch();
  }, [refetch]);

  /** Drops the local edits (no refetch). */
  const discard = useCallback(() => setDraft(null), []);

  const mutation = useMutation({
    mutationFn: (vars: { form: F; version: number }) =>
      apiRequest<TSaveResponse>(saveMethod, savePath, {
        body: toPayload(vars.form),
        headers: { 'If-Match': `"${vars.version}"` },
      }),
    onSuccess: (answer, vars) => {
      const previous = queryClient.getQueryData<Versioned<V>>(queryKey);
      if (previous && typeof answer?.version === 'number') {
        queryClient.setQueryData<Versioned<V>>(queryKey, {
          version: answer.version,
          data: toView(vars.form, previous.data),
        });
      }
      // Edits typed while the save ran stay, now based on what was saved.
      setDraft((current) =>
        current && current.form !== vars.form
          ? { form: current.form, base: vars.form, version: answer?.version ?? current.version }
          : null,
      );
      toast(successTitle ? { title: successTitle, description: successMessage } : { title: successMessage });
      void queryClient.invalidateQueries({ queryKey });
      void queryClient.invalidateQueries({ queryKey: queryKeys.user });
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) {
        toast({
          title: failureTitle,
          description: errorDetail(error, failureMessage),
          variant: 'destructive',
          duration: Infinity,
          action: {
            label: RELOAD_LABEL,
            altText: 'Rechargez la page pour voir la dernière version',
            onClick: reload,
          },
        });
        return;
      }
      toast({
        title: failureTitle,
        description: errorDetail(error, failureMessage),
        variant: 'destructive',
      });
    },
  });

  const save = useCallback(() => {
    if (!form || !query.data) return;
    mutation.mutate({ form, version: draft?.version ?? query.data.version });
  }, [form, query.data, draft, mutation]);

  return { query, form, dirty, update, save, saving: mutation.isPending, reload, discard };
}
