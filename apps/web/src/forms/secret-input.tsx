import { useState } from 'react';
import { Eraser, Eye, EyeOff, Undo2 } from 'lucide-react';
import { SECRET_PLACEHOLDER } from '@synchro/contracts/constants';
import { Button } from '../components/ui/button.tsx';
import { FieldHint } from '../components/ui/label.tsx';
import { Input } from '../components/ui/input.tsx';
import { FormField, type FieldControlProps } from '../components/ui/form.tsx';

export interface SecretInputProps extends FieldControlProps {
  /** SECRET_PLACEHOLDER keeps the stored secret, '' means none, any other text replaces it. */
  value: string;
  /** The value read from the server: SECRET_PLACEHOLDER when a secret is stored. */
  initial: string;
  onChange: (value: string) => void;
  /** Accessible name of the field, for the buttons beside it. */
  label: string;
  /** What the secret is, for the hints under the field (a password by default). */
  kind?: SecretKind;
}

export type SecretKind = 'password' | 'key';

const HINTS: Record<SecretKind, { keeping: string; clearing: string; replacing: string }> = {
  password: {
    keeping: 'Mot de passe enregistré : tapez-en un autre pour le remplacer.',
    clearing: 'Le mot de passe enregistré sera supprimé à la validation.',
    replacing: 'Le nouveau mot de passe remplacera celui enregistré.',
  },
  key: {
    keeping: 'Clé enregistrée : tapez-en une autre pour la remplacer.',
    clearing: 'La clé enregistrée sera supprimée à la validation.',
    replacing: 'La nouvelle clé remplacera celle enregistrée.',
  },
};

/**
 * A password that the browser never receives: a stored one shows as bullets (the placeholder).
 * Typing replaces it; 'Conserver l'actuel' goes back to the stored one; 'Effacer' removes it.
 */
export function SecretInput({
  value,
  initial,
  onChange,
  label,
  kind = 'password',
  labelId: _labelId,
  ...control
}: SecretInputProps) {
  const [visible, setVisible] = useState(false);
  const stored = initial === SECRET_PLACEHOLDER;
  const keeping = value === SECRET_PLACEHOLDER;
  const hintId = `${control.id}-secret`;
  const describedBy = [control['aria-describedby'], hintId].filter(Boolean).join(' ');

  let hint: string;
  if (keeping) hint = HINTS[kind].keeping;
  else if (stored && value === '') hint = HINTS[kind].clearing;
  else if (stored) hint = HINTS[kind].replacing;
  else hint = '';

  return (
    <div className="grid gap-2">
      <div className="flex min-w-0 items-center gap-2">
        <Input
          {...control}
          aria-describedby={describedBy}
          type={visible && !keeping ? 'text' : 'password'}
          autoComplete="new-password"
          spellCheck={false}
          value={keeping ? '' : value}
          placeholder={keeping ? SECRET_PLACEHOLDER : undefined}
          className="min-w-0 flex-1 font-mono placeholder:tracking-widest placeholder:text-foreground"
          onChange={(event) => onChange(event.target.value)}
        />
        <Button
          variant="outline"
          size="icon"
          disabled={keeping || value === ''}
          aria-label={visible ? `Masquer\u00a0: ${label}` : `Afficher\u00a0: ${label}`}
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
        </Button>
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        {hint ? <FieldHint id={hintId}>{hint}</FieldHint> : <span id={hintId} hidden />}
        {stored && keeping ? (
          <Button
            variant="link"
            size="sm"
            className="h-auto px-0"
            aria-label={`Effacer\u00a0: ${label}`}
            onClick={() => onChange('')}
          >
            <Eraser aria-hidden="true" />
            Effacer
          </Button>
        ) : null}
        {stored && !keeping ? (
          <Button
            variant="link"
            size="sm"
            className="h-auto px-0"
            aria-label={`Conserver l'actuel\u00a0: ${label}`}
            onClick={() => {
              setVisible(false);
              onChange(SECRET_PLACEHOLDER);
            }}
          >
            <Undo2 aria-hidden="true" />
            Conserver l'actuel
          </Button>
        ) : null}
      </div>
    </div>
  );
}

export interface SecretFieldProps extends Omit<SecretInputProps, keyof FieldControlProps | 'label'> {
  /** The visible label. */
  label: string;
  /** Accessible name of the field, for the buttons beside it. */
  secretLabel: string;
  /**
   * Shown under the field as an error when the stored secret is kept while a field that decides
   * where it goes changed (movedSecretHint of @synchro/contracts): the server refuses that save.
   */
  movedHint?: string;
}

/** A labelled password field of a settings screen (see SecretInput). */
export function SecretField({ label, secretLabel, movedHint, ...secret }: SecretFieldProps) {
  return (
    <FormField label={label} error={movedHint || undefined}>
      {(control) => <SecretInput {...control} label={secretLabel} {...secret} />}
    </FormField>
  );
}
