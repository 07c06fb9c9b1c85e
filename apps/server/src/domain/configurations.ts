import { ConfigXmlError, parseConfig } from '@synchro/config-xml';

/**
 * Checks that a text can be stored as an installation's ConfigConnecteur (well-formed, safe,
 * root <Connexion>, within the size limit); returns the French reason when it cannot, else null.
 */
export function validateConfigText(text: string): string | null {
  try {
    parseConfig(text);
    return null;
  } catch (err) {
    if (err instanceof ConfigXmlError) return err.message;
    throw err;
  }
}
