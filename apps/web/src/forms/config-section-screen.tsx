import type { FormEvent, ReactNode } from 'react';
import { ErrorState } from '../components/ui/error-state.tsx';
import { SaveBar } from '../components/ui/form.tsx';
import { PageHeader } from '../components/ui/page-header.tsx';
import { LoadingState } from '../components/ui/spinner.tsx';
import { errorDetail } from '../lib/api-client.ts';
import { usePageTitle } from '../lib/use-page-title.ts';
import { useScrollPadding } from '../lib/use-scroll-padding.ts';

/** What the frame shows of a section editor (`useConfigSection`); `query` is the one a retry asks again. */
export interface SectionFrame<F> {
  query: { isError: boolean; error: unknown; isFetching: boolean; refetch: () => unknown };
  form: F | null;
  dirty: boolean;
  save: () => void;
  saving: boolean;
}

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
  const { query, form, dirty, save, saving } = section;

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
