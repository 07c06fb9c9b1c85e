import type { TExternalLinksPayload, TExternalLinksView } from '@synchro/contracts';
import { CONFIG_BLOCK_COUNT, SECRET_PLACEHOLDER } from '@synchro/contracts/constants';

export type LiaisonForm = TExternalLinksPayload['Liaisons'][number];
export type ExternalLinksForm = TExternalLinksPayload;

/** The folders and the four master-software links (more when stored), padded with empty ones. */
export function toExternalLinksForm(view: TExternalLinksView): ExternalLinksForm {
  const Liaisons = view.Liaisons.map((l): LiaisonForm => ({
    Logiciel: l.Logiciel,
    Config: l.Config,
    Utilisateur: l.Utilisateur,
    MDP: l.MDP,
  }));
  while (Liaisons.length < CONFIG_BLOCK_COUNT)
    Liaisons.push({ Logiciel: '', Config: '', Utilisateur: '', MDP: '' });
  return { Dossier_Import: view.Dossier_Import, Dossier_Export: view.Dossier_Export, Liaisons };
}

export const toExternalLinksPayload = (form: ExternalLinksForm): TExternalLinksPayload => ({
  Dossier_Import: form.Dossier_Import,
  Dossier_Export: form.Dossier_Export,
  Liaisons: form.Liaisons.map((l) => ({ ...l })),
});

/** The view after a save: typed passwords become the placeholder. */
export const toExternalLinksView = (form: ExternalLinksForm): TExternalLinksView => ({
  ...toExternalLinksPayload(form),
  Liaisons: form.Liaisons.map((l) => ({ ...l, MDP: l.MDP === '' ? '' : SECRET_PLACEHOLDER })),
});
