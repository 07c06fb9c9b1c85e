import { CircleCheck, CircleX, Database } from 'lucide-react';
import type { TSourcesView, TSourceView } from '@synchro/contracts';
import {
  SECRET_DESTINATIONS,
  movedSecretFields,
  movedSecretHint,
} from '@synchro/contracts/secret-destinations';
import { Badge } from '../../components/ui/badge.tsx';
import { FormCheckField, FormSection } from '../../components/ui/form.tsx';
import { Switch } from '../../components/ui/switch.tsx';
import { ConfigSectionScreen } from '../../forms/config-section-screen.tsx';
import { BlockGrid } from '../../forms/block-grid.tsx';
import { SecretField } from '../../forms/secret-input.tsx';
import { SelectField } from '../../forms/select-field.tsx';
import { TextField } from '../../forms/text-field.tsx';
import { patchAt } from '../../forms/patch-at.ts';
import { useConfigSection } from '../../forms/use-config-section.ts';
import { fromSelectValue, providerOptions, toSelectValue } from './providers.ts';
import { toSourcesForm, toSourcesPayload, toSourcesView, type SourceForm } from './sources-form.ts';

/** What the connector last said of a connection (read-only); nothing when it said nothing. */
function ConnectionStatus({ source }: { source: TSourceView | undefined }) {
  if (!source || source.Status === null) return null;
  if (source.Status === 0) {
    return (
      <Badge variant="destructive" className="max-w-full whitespace-normal">
        <CircleX aria-hidden="true" />
        {source.StatusLibelle || 'Connexion échouée'}
      </Badge>
    );
  }
  return (
    <Badge variant="success">
      <CircleCheck aria-hidden="true" />
      Connectée
    </Badge>
  );
}

function SourceBlock({
  index,
  source,
  initial,
  onChange,
}: {
  index: number;
  source: SourceForm;
  initial: TSourceView | undefined;
  onChange: (patch: Partial<SourceForm>) => void;
}) {
  const n = index + 1;
  const title = `Connexion ${n}`;
  const rule = SECRET_DESTINATIONS.sources;
  const movedHint = movedSecretHint(rule, movedSecretFields(rule, initial, source));
  return (
    <FormSection
      title={title}
      icon={<Database aria-hidden="true" />}
      status={<ConnectionStatus source={initial} />}
    >
      <SelectField
        label="Provider"
        value={toSelectValue(source.Provider)}
        onValueChange={(value) => onChange({ Provider: fromSelectValue(value) })}
        options={providerOptions(source.Provider)}
      />
      {/* The spec's order: Provider, Serveur, Lecture seule, Base de données, Utilisateur, Mot de passe. */}
      <TextField label="Serveur" value={source.Serveur} onChange={(v) => onChange({ Serveur: v })} />
      <FormCheckField label="Lecture seule" className="@xl:self-end @xl:pb-2.5">
        {({ id, labelId, ...aria }) => (
          <Switch
            id={id}
            aria-labelledby={labelId}
            {...aria}
            checked={source.Lecture_Seule}
            onCheckedChange={(checked) => onChange({ Lecture_Seule: checked })}
          />
        )}
      </FormCheckField>
      <TextField label="Base de données" value={source.Nom_BDD} onChange={(v) => onChange({ Nom_BDD: v })} />
      <TextField
        label="Utilisateur"
        value={source.Utilisateur}
        onChange={(v) => onChange({ Utilisateur: v })}
      />
      <SecretField
        label="Mot de passe"
        secretLabel={`Mot de passe de la connexion ${n}`}
        value={source.MDP}
        initial={initial?.MDP ?? ''}
        movedHint={movedHint}
        onChange={(MDP) => onChange({ MDP })}
      />
    </FormSection>
  );
}

export default function DatabasePage() {
  const section = useConfigSection({
    section: 'sources',
    toForm: toSourcesForm,
    toPayload: toSourcesPayload,
    toView: toSourcesView,
  });
  const initial: TSourcesView | undefined = section.query.data?.data;

  return (
    <ConfigSectionScreen
      title="Base de données source"
      description="Connexions du connecteur aux bases de données de votre ERP (quatre au plus)."
      section={section}
    >
      {(form) => (
        <BlockGrid>
          {form.sources.map((source, i) => (
            <SourceBlock
              key={i}
              index={i}
              source={source}
              initial={initial?.sources[i]}
              onChange={(patch) => section.update((f) => ({ sources: patchAt(f.sources, i, patch) }))}
            />
          ))}
        </BlockGrid>
      )}
    </ConfigSectionScreen>
  );
}
