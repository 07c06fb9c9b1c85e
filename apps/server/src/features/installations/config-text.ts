/** Largest configuration accepted (product spec §9). */
export const MAX_CONFIG_BYTES = 50 * 1024 * 1024;

/**
 * Checks that a text can be stored as an installation's ConfigConnecteur; returns a French
 * description of the problem, or null when it is acceptable.
 */
export function validateConfigText(text: string): string | null {
  if (Buffer.byteLength(text, 'utf8') > MAX_CONFIG_BYTES) return 'le fichier dépasse 50 Mo.';
  const body = text.replace(/^\uFEFF/, '').trim();
  if (!body.startsWith('<')) return "le contenu n'est pas du XML.";
  if (!/<Connexion[\s>/]/.test(body)) return "l'élément racine <Connexion> est absent.";
  return null;
}
