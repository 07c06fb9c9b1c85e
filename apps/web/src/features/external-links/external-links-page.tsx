import { FolderInput, Link2 } from 'lucide-react';
import type { TExternalLinksView, TLiaisonView } from '@synchro/contracts';
import {
  SECRET_DESTINATIONS,
  movedSecretFields,
  movedSecretHint,
} from '@synchro/contracts/secret-destinations';
import { FormSection } from '../../components/ui/form.tsx';
import { ConfigSectionScreen } from '../../forms/config-section-screen.tsx';
import { BlockGrid } from '../../forms/block-grid.tsx';
import { SecretField } from '../../forms/secret-input.tsx';
import { TextField } from '../../forms/text-field.tsx';
import { patchAt } from '../../forms/patch-at.ts';
import { useConfigSection } from '../../forms/use-config-section.ts';
import {
  toExternalLinksForm,
  toExternalLinksPayload,
  toExternalLinksView,
  type LiaisonForm,
} from './external-links-form.ts';

function LiaisonBlock({
  index,
  liaison,
  initial,
  onChange,
}: {
  index: number;
  liaison: LiaisonForm;
  initial: TLiaisonView | undefined;
  onChange: (patch: Partial<LiaisonForm>) => void;
}) {
  const n = index + 1;
  const rule = SECRET_DESTINATIONS.externalLinks;
  const movedHint = movedSecretHint(rule, movedSecretFields(rule, initial, liaison));
  return (
    <FormSection title={`Logiciel maître ${n}`} icon={<Link2 aria-hidden="true" />}>
      <TextField
        label="Logiciel maître"
        className="col-span-full"
        value={liaison.Logiciel}
        onChange={(Logiciel) => onChange({ Logiciel })}
      />
      <TextField
        label="Configuration maître"
        className="col-span-full"
        value={liaison.Config}
        onChange={(Config) => onChange({ Config })}
      />
      <TextField
        label="Utilisateur logiciel"
        value={liaison.Utilisateur}
        onChange={(Utilisateur) => onChange({ Utilisateur })}
      />
      <SecretField
        label="Mot de passe"
        secretLabel={`Mot de passe du logiciel maître ${n}`}
        value={liaison.MDP}
        initial={initial?.MDP ?? ''}
        movedHint={movedHint}
        onChange={(MDP) => onChange({ MDP })}
      />
    </FormSection>
  );
}

export default function ExternalLinksPage() {
  const section = useConfigSection({
    section: 'externalLinks',
    toForm: toExternalLinksForm,
    toPayload: toExternalLinksPayload,
    toView: toExternalLinksView,
  });
  const initial: TExternalLinksView | undefined = section.query.data?.data;

  return (
    <ConfigSectionScreen
      title="Liaisons externes"
      description="Dossiers d'échange de fichiers et logiciels maîtres reliés au connecteur."
      section={section}
    >
      {(form) => (
        <>
          <FormSection
            title="Dossiers d'échange"
            description="Chemins vus depuis le poste du connecteur."
            icon={<FolderInput aria-hidden="true" />}
          >
            <TextField
              label="Dossier d'import"
              className="col-span-full"
              value={form.Dossier_Import}
              onChange={(Dossier_Import) => section.update((f) => ({ ...f, Dossier_Import }))}
            />
            <TextField
              label="Dossier d'export"
              className="col-span-full"
              value={form.Dossier_Export}
              onChange={(Dossier_Export) => section.update((f) => ({ ...f, Dossier_Export }))}
            />
          </FormSection>
          <BlockGrid>
            {form.Liaisons.map((liaison, i) => (
              <LiaisonBlock
                key={i}
                index={i}
                liaison={liaison}
                initial={initial?.Liaisons[i]}
                onChange={(patch) =>
                  section.update((f) => ({ ...f, Liaisons: patchAt(f.Liaisons, i, patch) }))
                }
              />
            ))}
          </BlockGrid>
        </>
      )}
    </ConfigSectionScreen>
  );
}
