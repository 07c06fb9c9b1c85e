import type { FormEvent, ReactNode } from 'react';
import { Button } from '../components/ui/button.tsx';
import { ErrorState } from '../components/ui/error-state.tsx';
import { SaveBar } from '../components/ui/form.tsx';
import { PageHeader } from '../components/ui/page-header.tsx';
import { LoadingState } from '../components/ui/spinner.tsx';
import { errorDetail } from '../lib/api-client.ts';
import { usePageTitle } from '../lib/use-page-title.ts';
import { RELOAD_LABEL } from './use-config-section.ts';
import { useScrollPadding } from '../lib/use-scroll-padding.ts';

/** What the frame shows of a section editor (`useConfigSection`); `query` is the one a retry asks again. */
export interface SectionFrame<F> {
  query: { isError: boolean; error: unknown; isFetching: boolean; refetch: () => unknown };
  form: F | null;
  dirty: boolean;
  save: () => void;
  saving: boolean;
  /** Edits under way while the configuration was saved elsewhere (live events). */
  changedElsewhere?: boolean;
  /** Drops the edits and shows the stored version. */
  reload?: () => void;
}

export const CHANGED_ELSEWHERE =
  'La configuration a été modifiée ailleurs (par le connecteur ou une autre session) pendant vos modifications. Si la même section a changé, votre enregistrement sera refusé : rechargez pour voir la dernière version.';

export interface ConfigSectionScreenProps<F> {
  title: string;
  description: ReactNode;
  section: SectionFrame<F>;
  /** Checks the form before saving; false keeps the request from leaving (errors are shown). */
  validate?: (form: F) => boolean;
  children: (form: F) => ReactNode;
  /** Text of the loading state (spec's overlay text when it gives one). */
  loadingLabel?: string;
  /** Title of the load-failure state. */
  errorTitle?: string;
}

/**
 * The frame of a settings screen: title, loading and error states, the form and its save bar.
 */
export function ConfigSectionScreen<F>({
  title,
  description,
  section,
  validate,
  children,
  loadingLabel = 'Chargement des paramètres…',
  errorTitle = 'Impossible de charger les paramètres',
}: ConfigSectionScreenProps<F>) {
  usePageTitle(title);
  // The save bar stays at the bottom of the window.
  useScrollPadding('bottom', '5.5rem');
  const { query, form, dirty, save, saving, changedElsewhere = false, reload } = section;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!form || saving) return;
    if (validate && !validate(form)) return;
    save();
  };

  let body: ReactNode;
  if (form) {
    body = (
      <form noValidate onSubmit={onSubmit} aria-label={title}>
        {changedElsewhere ? (
          <div
            role="alert"
            className="mb-6 flex flex-wrap items-center gap-3 rounded-md border border-warning/40 bg-warning-soft px-4 py-3 text-sm text-warning-soft-foreground"
          >
            <p className="min-w-0 flex-1 basis-64">{CHANGED_ELSEWHERE}</p>
            {reload ? (
              <Button type="button" variant="outline" size="sm" onClick={reload}>
                {RELOAD_LABEL}
              </Button>
            ) : null}
          </div>
        ) : null}
        <div className="grid gap-6">{children(form)}</div>
        <SaveBar dirty={dirty} saving={saving} />
      </form>
    );
  } else if (query.isError) {
    body = (
      <ErrorState
        title={errorTitle}
        message={errorDetail(query.error, 'Le serveur ne répond pas.')}
        retrying={query.isFetching}
        onRetry={() => void query.refetch()}
      />
    );
  } else {
    body = <LoadingState label={loadingLabel} />;
  }

  return (
    <>
      <PageHeader title={title} description={description} />
      {body}
    </>
  );
}
