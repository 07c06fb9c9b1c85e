import type { ReactNode } from 'react';
import { FormField } from '../components/ui/form.tsx';
import { OptionsSelect, type OptionsSelectProps } from '../components/ui/select.tsx';

export interface SelectFieldProps extends Pick<
  OptionsSelectProps,
  'value' | 'onValueChange' | 'options' | 'placeholder' | 'contentClassName'
> {
  label: string;
  className?: string;
  /** Something beside the select (e.g. a button), kept on its row. */
  aside?: ReactNode;
  /** A line under the select, tied to it. */
  hint?: ReactNode;
}

/** A labelled select of a settings screen, named by its label then its value. */
export function SelectField({ label, className, aside, hint, ...select }: SelectFieldProps) {
  return (
    <FormField label={label} className={className} aside={aside} hint={hint}>
      {({ id, labelId, ...aria }) => (
        <OptionsSelect id={id} aria-labelledby={`${labelId} ${id}`} {...aria} {...select} />
      )}
    </FormField>
  );
}
