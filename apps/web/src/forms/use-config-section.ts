import { useCallback, useMemo, useState } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CONFIG_SECTIONS,
  SAVE_ERROR_TITLE,
  ZSaveResponse,
  type ConfigSectionSave,
  type TConfigSectionKey,
  type TSaveableSectionKey,
  type TSectionPayload,
  type TSectionView,
} from '@synchro/contracts';
import { toast } from '../components/ui/toast-store.ts';
import { ApiError, apiRequest, api, errorDetail, type ResponseSchema } from '../lib/api-client.ts';
import { queryKeys } from '../lib/query-keys.ts';
import { useUnsavedChanges } from '../state/unsaved-changes/use-unsaved-changes.ts';

export const RELOAD_LABEL = 'Recharger';

/**
 * The query of a section's view: GET path and response schema from the registry; the answer is
 * `{version, data}`, `data` typed by the key.
 */
export function configSectionQuery<K extends TConfigSectionKey>(section: K) {
  const entry = CONFIG_SECTIONS[section];
  // The entry of K parses `{version, data: TSectionView<K>}` (TSectionResponse<K>); TypeScript
  // cannot follow a generic index into the registry, hence the assertion.
  const schema = entry.response as unknown as ResponseSchema<{ version: number; data: TSectionView<K> }>;
  return queryOptions({
    queryKey: queryKeys.configSection(section),
    queryFn: ({ signal }) => api.get(entry.getPath, { signal, schema }),
  });
}

/** GET /api/config/data-lists: employees, agendas, depots and families (Exclusions, Terminaux). */
export const useDataLists = () => useQuery(configSectionQuery('dataLists'));

export interface ConfigSectionOptions<K extends TSaveableSectionKey, F> {
  /** The section's key in the registry: paths, method, schemas and texts come from there. */
  section: K;
  /** The form state of a view (null: nothing to edit, e.g. no terminal selected). */
  toForm: (view: TSectionView<K>) => F | null;
  /** The payload of a form state (docs/spec-notes.md, Saves of the settings screens). */
  toPayload: (form: F) => TSectionPayload<K>;
  /** What the server answers after saving `form` (shown until the refetch lands). */
  toView: (form: F, previous: TSectionView<K>) => TSectionView<K>;
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
 * discarded), the unsaved-changes flag, and the save with If-Match and the toasts of the registry
 * (docs/spec-notes.md, Saves of the settings screens). A 409 (someone else changed the section)
 * offers 'Recharger', which discards the edits.
 */
export function useConfigSection<K extends TSaveableSectionKey, F>(options: ConfigSectionOptions<K, F>) {
  const { section, toForm, toPayload, toView } = options;
  const entry: ConfigSectionSave = CONFIG_SECTIONS[section].save;
  const failureTitle = entry.failureTitle ?? SAVE_ERROR_TITLE;
  const queryClient = useQueryClient();
  const sectionQuery = configSectionQuery(section);
  const { queryKey } = sectionQuery;
  const query = useQuery(sectionQuery);
  const [draft, setDraft] = useState<Draft<F> | null>(null);

  const serverForm = useMemo(() => (query.data ? toForm(query.data.data) : null), [query.data, toForm]);
  const form = draft?.form ?? serverForm;
  const dirty = draft !== null && !same(draft.form, draft.base);
  useUnsavedChanges(dirty);

  const update = useCallback(
    (change: (form: F) => F) => {
      setDraft((current) => {
        if (current) return { ...current, form: change(current.form) };
        if (serverForm === null || !query.data) return current;
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
      apiRequest(entry.method, entry.path, {
        body: toPayload(vars.form),
        headers: { 'If-Match': `"${vars.version}"` },
        schema: ZSaveResponse,
      }),
    onSuccess: (answer, vars) => {
      const previous = queryClient.getQueryData(queryKey);
      if (previous) {
        queryClient.setQueryData(queryKey, {
          version: answer.version,
          data: toView(vars.form, previous.data),
        });
      }
      // Edits typed while the save ran stay, now based on what was saved.
      setDraft((current) =>
        current && current.form !== vars.form
          ? { form: current.form, base: vars.form, version: answer.version }
          : null,
      );
      toast(
        entry.successTitle
          ? { title: entry.successTitle, description: entry.success }
          : { title: entry.success },
      );
      void queryClient.invalidateQueries({ queryKey });
      void queryClient.invalidateQueries({ queryKey: queryKeys.user });
      void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard });
    },
    onError: (error) => {
      const conflict = error instanceof ApiError && error.status === 409;
      toast({
        title: failureTitle,
        description: errorDetail(error, entry.failure),
        variant: 'destructive',
        ...(conflict
          ? {
              duration: Infinity,
              action: {
                label: RELOAD_LABEL,
                altText: 'Rechargez la page pour voir la dernière version',
                onClick: reload,
              },
            }
          : {}),
      });
    },
  });

  const save = useCallback(() => {
    if (form === null || !query.data) return;
    mutation.mutate({ form, version: draft?.version ?? query.data.version });
  }, [form, query.data, draft, mutation]);

  // The live events refetch the section when the configuration is saved elsewhere (app/shell/
  // live-events.ts): edits under way stay, and the screen says the stored version moved on.
  const changedElsewhere =
    dirty && draft !== null && query.data !== undefined && query.data.version > draft.version;
  return { query, form, dirty, changedElsewhere, update, save, saving: mutation.isPending, reload, discard };
}
