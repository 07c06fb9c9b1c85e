import { NBSP } from '../../lib/format.ts';

const oneDecimal = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });

/** 512 o, 12,4 Ko, 22,5 Mo (French units, 1 Ko = 1 024 octets). */
export function formatByteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}${NBSP}o`;
  if (bytes < 1024 * 1024) return `${oneDecimal.format(bytes / 1024)}${NBSP}Ko`;
  return `${oneDecimal.format(bytes / (1024 * 1024))}${NBSP}Mo`;
}
