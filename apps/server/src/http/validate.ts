import { parsePayload, type TPayloadIssue } from '@synchro/contracts';
import type { z } from 'zod';
import { AppError } from './errors.ts';

/** 400 « Requête invalide. champ : message ; … » listing every invalid field. */
export function invalidPayload(issues: readonly TPayloadIssue[]): AppError {
  const details = issues.map((i) => (i.path ? `${i.path} : ${i.message}` : i.message));
  return new AppError(400, `Requête invalide. ${details.join(' ; ')}`, 'VALIDATION');
}

/**
 * Parses a request part with a contracts schema (French messages: the schema's own, else zod's
 * French locale); returns its normal form (`z.output`), or throws the 400 above.
 */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = parsePayload(schema, value);
  if (!result.ok) throw invalidPayload(result.issues);
  return result.value;
}
