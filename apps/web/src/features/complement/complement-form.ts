import type { TComplementPayload, TComplementView } from '@synchro/contracts';
import { INVALID_TEST_ADDRESS } from '@synchro/contracts';
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

/** The field's error for malformed addresses (the server's own text, one for the whole product). */
export const EMAIL_ERROR = INVALID_TEST_ADDRESS;
export const EMAIL_HINT = 'Une ou plusieurs adresses, séparées par un point-virgule.';

/** What each box sends (docs/mail.md, What is sent), said beside it. */
export const MAIL_RULES = {
  envoyerRapport:
    'Dans la minute qui suit chaque synchronisation signalée par le connecteur\u00a0: type, date, durée, nombre d’enregistrements, vitesse, volume, erreurs avec leurs références, lien vers la console.',
  notifErr:
    'Enregistrements et transactions arrivés en erreur, regroupés\u00a0: un premier email dans la minute qui suit la première erreur, puis au plus un par quart d’heure, chacun listant ce qui est arrivé depuis.',
  notifImp: 'Après chaque import des saisies\u00a0: les saisies importées et celles rejetées.',
  notifInf:
    'Service d’automate silencieux depuis 24\u00a0heures, puis de nouveau en ligne\u00a0; demande de synchronisation qui n’a pas abouti (aucun service, adresse refusée, service injoignable ou sans réponse, refus, réponse illisible, erreur inattendue) et pourquoi.',
} as const;
