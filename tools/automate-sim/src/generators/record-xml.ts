/**
 * The record XML (`Enreg`) as the terminals export it: root `SyncNuxiDev` with `DateHeureExport`,
 * `Device`, `Table`, `NDEvenement` and `Enregistrement` (fixtures/records/enreg-devis.xml): CRLF
 * line ends, two-space indentation, `<Tag />` for an empty value. Values are plain text here; the
 * caller turns the result into the connector's text convention.
 */
import { escapeText } from '@synchro/config-xml';

/** A field: a text value, or child elements (`Lignes/Ligne`...). */
export type XmlField = readonly [name: string, value: string | readonly XmlField[]];

const NL = '\r\n';

function writeFields(fields: readonly XmlField[], depth: number): string {
  const indent = '  '.repeat(depth);
  let out = '';
  for (const [name, value] of fields) {
    if (typeof value === 'string') {
      out +=
        value === ''
          ? `${indent}<${name} />${NL}`
          : `${indent}<${name}>${escapeText(value, NL)}</${name}>${NL}`;
    } else {
      out += `${indent}<${name}>${NL}${writeFields(value, depth + 1)}${indent}</${name}>${NL}`;
    }
  }
  return out;
}

export interface RecordEnvelope {
  /** 17-digit stamp of the export from the terminal. */
  exportedAt: string;
  device: string;
  /** The `Table` leaf: documentdevis, intervention, tiers, ged... */
  table: string;
  /** NDEvenement: A added, M modified. */
  event: 'A' | 'M';
}

export function recordXml(envelope: RecordEnvelope, fields: readonly XmlField[]): string {
  return (
    `<?xml version="1.0" encoding="utf-8"?>${NL}<SyncNuxiDev>${NL}` +
    writeFields(
      [
        ['DateHeureExport', envelope.exportedAt],
        ['Device', envelope.device],
        ['Table', envelope.table],
        ['NDEvenement', envelope.event],
      ],
      1,
    ) +
    `  <Enregistrement>${NL}${writeFields(fields, 2)}  </Enregistrement>${NL}</SyncNuxiDev>`
  );
}

/** `fields` with the values of `overrides` put in place (names not in `fields` are appended). */
export function withValues(
  fields: readonly (readonly [string, string])[],
  overrides: Readonly<Record<string, string | readonly XmlField[]>>,
): XmlField[] {
  const out: XmlField[] = fields.map(([name, value]) => [name, overrides[name] ?? value]);
  for (const [name, value] of Object.entries(overrides)) {
    if (!fields.some(([n]) => n === name)) out.push([name, value]);
  }
  return out;
}
