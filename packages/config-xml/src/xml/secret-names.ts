/**
 * Elements whose content is a secret (values: a password, a key; blocks: whole subtrees). Here,
 * below redact.ts, so that the scanner can keep their text out of its error messages.
 */
export const SECRET_VALUES: readonly string[] = ['MDP', 'APIKey_Google'];
export const SECRET_BLOCKS: readonly string[] = ['Token', 'Tokens', 'EspaceClient'];
const SECRET_NAMES = new Set([...SECRET_VALUES, ...SECRET_BLOCKS].map((n) => n.toLowerCase()));

export const isSecretName = (name: string): boolean => SECRET_NAMES.has(name.toLowerCase());
