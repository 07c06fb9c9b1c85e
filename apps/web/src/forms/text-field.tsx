import type { ComponentProps } from 'react';
import { FormField } from '../components/ui/form.tsx';
import { Input } from '../components/ui/input.tsx';

export interface TextFieldProps extends Omit<ComponentProps<'input'>, 'value' | 'onChange'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  error?: string | undefined;
}

/** A labelled one-line text field of a settings screen (no autofill, no spell check by default). */
export function TextField({ label, value, onChange, hint, error, className, ...input }: TextFieldProps) {
  return (
    <FormField label={label} hint={hint} error={error} {...(className ? { className } : {})}>
      {({ labelId: _l, ...control }) => (
        <Input
          autoComplete="off"
          spellCheck={false}
          {...input}
          {...control}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </FormField>
  );
}
