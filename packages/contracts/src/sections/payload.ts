import { z } from 'zod';

const frenchLocale = z.locales.fr().localeError;

/** zod's French locale, with a plainer text for a missing field. */
const frenchErrors: z.core.$ZodErrorMap = (issue) =>
  issue.code === 'invalid_type' && issue.input === undefined ? 'champ obligatoire' : frenchLocale(issue);

/** One invalid field of a payload: its path (`sources.0.MDP`) and a French message. */
export interface TPayloadIssue {
  path: string;
  message: string;
}

/**
 * Validates a payload with French messages (a schema's own messages first, zod's French locale
 * for the rest). Returns the normal form, or the list of invalid fields. The server validates
 * every request body with it (apps/server/src/http/validate.ts), the configuration engine every
 * edit's payload.
 */
export function parsePayload<T extends z.ZodType>(
  schema: T,
  data: unknown,
): { ok: true; value: z.output<T> } | { ok: false; issues: TPayloadIssue[] } {
  const r = schema.safeParse(data, { error: frenchErrors });
  if (r.success) return { ok: true, value: r.data };
  return {
    ok: false,
    issues: r.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
  };
}

/** True when the string holds only characters an XML 1.0 document can carry. */
export function isXmlSafeText(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20) {
      if (c !== 9 && c !== 10 && c !== 13) return false;
    } else if (c >= 0xd800) {
      if (c <= 0xdbff) {
        const next = value.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) i++;
        else return false;
      } else if (c <= 0xdfff || c === 0xfffe || c === 0xffff) return false;
    }
  }
  return true;
}

const XML_TEXT_MESSAGE = 'La valeur contient un caractère non autorisé';

/** A text value of the configuration, at most `max` characters, no character XML refuses. */
export function zConfigText(max = 1000) {
  return z
    .string({ error: 'Texte attendu' })
    .max(max, `Au plus ${max} caractères`)
    .refine(isXmlSafeText, XML_TEXT_MESSAGE);
}

/**
 * A text value shown in a one-line input (identifiers, paths, names). Line breaks are accepted all
 * the same: a value stored with one must be able to go back unchanged.
 */
export function zConfigLine(max = 500) {
  return zConfigText(max);
}

/** A switch: true/false, 1/0 or '1'/'0' ('true'/'false' too); outputs a boolean. */
export const ZFlag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false'])], {
    error: 'Valeur oui/non attendue (true, false, 1 ou 0)',
  })
  .transform((v) => v === true || v === 1 || v === '1' || v === 'true');
