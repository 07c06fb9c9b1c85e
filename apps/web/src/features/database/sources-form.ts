import type { TSourcesPayload, TSourcesView, TSourceView } from '@synchro/contracts';
import { CONFIG_BLOCK_COUNT, SECRET_PLACEHOLDER } from '@synchro/contracts/constants';

export type SourceForm = TSourcesPayload['sources'][number] & { Lecture_Seule: boolean };
export interface SourcesForm {
  sources: SourceForm[];
}

const emptySource = (): SourceForm => ({
  Provider: '',
  Serveur: '',
  Nom_BDD: '',
  Lecture_Seule: false,
  Utilisateur: '',
  MDP: '',
});

/** The four blocks (more when the configuration holds more), padded with empty ones. */
export function toSourcesForm(view: TSourcesView): SourcesForm {
  const sources = view.sources.map((s): SourceForm => ({
    Provider: s.Provider,
    Serveur: s.Serveur,
    Nom_BDD: s.Nom_BDD,
    Lecture_Seule: s.Lecture_Seule,
    Utilisateur: s.Utilisateur,
    MDP: s.MDP,
  }));
  while (sources.length < CONFIG_BLOCK_COUNT) sources.push(emptySource());
  return { sources };
}

export const toSourcesPayload = (form: SourcesForm): TSourcesPayload => ({
  sources: form.sources.map((s) => ({ ...s })),
});

/** The view after a save: typed passwords become the placeholder; statuses stay the connector's. */
export function toSourcesView(form: SourcesForm, previous: TSourcesView): TSourcesView {
  return {
    sources: form.sources.map((s, i): TSourceView => ({
      ...s,
      MDP: s.MDP === '' ? '' : SECRET_PLACEHOLDER,
      Status: previous.sources[i]?.Status ?? null,
      StatusLibelle: previous.sources[i]?.StatusLibelle ?? '',
    })),
  };
}
