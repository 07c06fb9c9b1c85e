import { DRIVE_PROVIDER_LABELS, type TDriveProvider, type TDriveStatus } from '@synchro/contracts';

/**
 * What « Drive pour la GED » says of the installation's drive link and which buttons it offers
 * (docs/mail.md, Drive), from the type chosen in the select (saved or not) and the stored link.
 * A link of another type than the chosen one is shown as that type's, never as the chosen one's:
 * its grant is alive at its provider until « Déconnecter ». « Déconnecter » is offered for any
 * stored link (connected, revoked, of another type); « Connecter » unless the chosen type is
 * connected.
 */

export const DRIVE_NOT_CONFIGURED = 'Connexion au Drive non configurée sur ce serveur';
export const CHOOSE_DRIVE = 'Choisissez Google Drive ou OneDrive, puis «\u00a0Connecter\u00a0».';

export interface DriveLinkView {
  /** connected: the chosen type's link works (said in the success colour). */
  tone: 'connected' | 'neutral';
  text: string | null;
  connect: boolean;
  disconnect: boolean;
}

export const providerOf = (driveType: string): TDriveProvider | null =>
  driveType === 'google' || driveType === 'onedrive' ? driveType : null;

type Link = NonNullable<TDriveStatus['link']>;

const accountOf = (link: Link) => `compte ${link.account || 'sans adresse'}`;

function otherTypeText(link: Link, status: TDriveStatus, chosen: TDriveProvider | null): string {
  const label = DRIVE_PROVIDER_LABELS[link.provider];
  const revoked = link.state === 'revoked' ? ', révoqué' : '';
  const what = `Lien enregistré pour ${label} (${accountOf(link)}${revoked}), qui n’est pas le Drive choisi\u00a0: `;
  if (chosen === null) return `${what}déconnectez-le s’il ne sert plus.`;
  const other = DRIVE_PROVIDER_LABELS[chosen];
  return status.configured[chosen]
    ? `${what}connectez ${other}, ou déconnectez ${label}.`
    : `${what}déconnectez-le s’il ne sert plus. ${DRIVE_NOT_CONFIGURED} (${other}).`;
}

export function driveLinkView(driveType: string, status: TDriveStatus | undefined): DriveLinkView {
  const chosen = providerOf(driveType);
  // Not read yet: « Connecter » alone, nothing said.
  if (!status) return { tone: 'neutral', text: null, connect: true, disconnect: false };
  const { link } = status;
  if (link === null) {
    const text =
      chosen === null ? CHOOSE_DRIVE : status.configured[chosen] ? 'Non connecté.' : DRIVE_NOT_CONFIGURED;
    return { tone: 'neutral', text, connect: true, disconnect: false };
  }
  if (link.provider !== chosen)
    return { tone: 'neutral', text: otherTypeText(link, status, chosen), connect: true, disconnect: true };
  if (link.state === 'revoked')
    return {
      tone: 'neutral',
      text: `Connexion révoquée par ${DRIVE_PROVIDER_LABELS[link.provider]}\u00a0: connectez de nouveau le Drive, ou déconnectez-le.`,
      connect: true,
      disconnect: true,
    };
  return {
    tone: 'connected',
    text: `Connecté\u00a0: ${accountOf(link)} (${DRIVE_PROVIDER_LABELS[link.provider]})`,
    connect: false,
    disconnect: true,
  };
}
