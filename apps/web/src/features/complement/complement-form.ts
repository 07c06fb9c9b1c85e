import type { TComplementPayload, TComplementView } from '@synchro/contracts';
import { SECRET_PLACEHOLDER } from '@synchro/contracts/constants';
import { withStored } from '../../forms/with-stored.ts';

export type ComplementForm = TComplementView;

/** Drive pour la GED (docs/spec-notes.md, Web: Complément): display label and stored value. */
export const DRIVE_OPTIONS = [
  { label: 'Pas de Drive', value: 'none' },
  { label: 'Google Drive', value: 'google' },
  { label: 'OneDrive', value: 'onedrive' },
] as const;

/** The options of the drive select; a stored value outside the list is offered as it is. */
export function driveOptions(current: string): { label: string; value: string }[] {
  return current === '' ? DRIVE_OPTIONS.map((o) => ({ ...o })) : withStored(DRIVE_OPTIONS, current);
}

export const toComplementForm = (view: TComplementView): ComplementForm => ({
  ...view,
  driveType: view.driveType === '' ? 'none' : view.driveType,
  mailRapport: { ...view.mailRapport },
});

export const toComplementPayload = (form: ComplementForm): TComplementPayload => ({
  googleApiKey: form.googleApiKey,
  driveType: form.driveType as TComplementPayload['driveType'],
  mailRapport: { ...form.mailRapport },
  scriptComplementaire: form.scriptComplementaire,
});

/** The view after a save: a typed key becomes the placeholder (the key is a secret). */
export const toComplementView = (form: ComplementForm): TComplementView => ({
  ...form,
  googleApiKey: form.googleApiKey === '' ? '' : SECRET_PLACEHOLDER,
  mailRapport: { ...form.mailRapport },
  scriptComplementaire: form.scriptComplementaire.replace(/\r\n?/g, '\n'),
});

const EMAIL = /^[^\s@;,]+@[^\s@;,.]+(\.[^\s@;,.]+)+$/;

/** Empty, or one or more addresses separated by ';' or ','. */
export function isValidEmailList(value: string): boolean {
  const text = value.trim();
  if (text === '') return true;
  return text
    .split(/[;,]/)
    .map((a) => a.trim())
    .every((a) => EMAIL.test(a));
}

export const EMAIL_ERROR =
  'Adresse e-mail invalide\u00a0: saisissez une adresse de la forme nom@entreprise.fr.';
export const EMAIL_HINT = 'Une ou plusieurs adresses, séparées par un point-virgule.';
