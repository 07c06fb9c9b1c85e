/**
 * Node's network error codes in French, as the screens show them (a sync order's answer, an
 * email's failure): read from the error's code, never from Node's English message.
 */
export const NETWORK_FAULTS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connexion refusée',
  ECONNRESET: 'connexion interrompue',
  EPIPE: 'connexion interrompue',
  EHOSTUNREACH: 'hôte injoignable',
  ENETUNREACH: 'réseau injoignable',
  EHOSTDOWN: 'hôte arrêté',
  EADDRNOTAVAIL: 'adresse indisponible',
  ETIMEDOUT: 'délai de connexion dépassé',
  ENOTFOUND: 'nom inconnu (DNS)',
  EAI_AGAIN: 'nom momentanément introuvable (DNS)',
};

/** The French label of a network error code, or null when the code is not one of NETWORK_FAULTS. */
export function networkFault(code: string | undefined): string | null {
  return code !== undefined && Object.hasOwn(NETWORK_FAULTS, code) ? (NETWORK_FAULTS[code] ?? null) : null;
}
