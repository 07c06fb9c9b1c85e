import type { z } from 'zod';
import { AppError } from './errors.ts';

/** Parses a request part with a contracts schema; invalid input is a 400 naming what is wrong. */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? `${issue.path.join('.')} : ` : '';
    return `${where}${frenchIssueMessage(issue)}`;
  });
  throw new AppError(400, `Requête invalide. ${details.join(' ; ')}`, 'VALIDATION');
}

// zod's default messages are English; the schemas' own messages (already French) are kept.
const ZOD_DEFAULT_MESSAGE = /^(Too (small|big)|Invalid|Expected|Unrecognized)/;

function frenchIssueMessage(issue: z.core.$ZodIssue): string {
  if (!ZOD_DEFAULT_MESSAGE.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'champ obligatoire' : `type invalide (attendu : ${issue.expected})`;
    case 'invalid_value':
      return `valeur invalide (valeurs possibles : ${issue.values.map((v) => String(v)).join(', ')})`;
    case 'too_small':
      return `valeur trop petite ou trop courte (minimum : ${String(issue.minimum)})`;
    case 'too_big':
      return `valeur trop grande ou trop longue (maximum : ${String(issue.maximum)})`;
    case 'unrecognized_keys':
      return `champs inconnus : ${issue.keys.join(', ')}`;
    default:
      return 'valeur invalide';
  }
}
