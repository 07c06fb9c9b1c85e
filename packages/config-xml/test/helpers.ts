import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The sanitised real document (CRLF, no BOM, `<Tag/>` style, double-encoded UTF-8). */
export const FIXTURE = readFileSync(
  fileURLToPath(new URL('./fixtures/connexion-ebp-gescom.xml', import.meta.url)),
  'utf8',
);

export const toLf = (s: string): string => s.replace(/\r\n/g, '\n');
export const withBom = (s: string): string => '\uFEFF' + s;
export const spacedSelfClose = (s: string): string => s.replace(/([A-Za-z_])\/>/g, '$1 />');
