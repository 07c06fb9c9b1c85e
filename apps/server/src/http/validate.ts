import {
  connectorRequestMessage,
  parseConnectorRequest,
  parsePayload,
  type TPayloadIssue,
} from '@synchro/contracts';
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

/**
 * The connector API's validation (docs/connector-api.md): its normal form, or 400
 * `invalid-request` « Requête invalide : records[3].DateHeure : … » naming each field and its
 * position in a batch.
 */
export function parseConnectorOr400<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = parseConnectorRequest(schema, value);
  if (!result.ok) throw new AppError(400, result.message, 'invalid-request');
  return result.value;
}

/** The 400 of the connector API for issues found after the schema (paths `records[3].Enreg`). */
export function connectorInvalid(issues: readonly TPayloadIssue[]): AppError {
  return new AppError(400, connectorRequestMessage(issues), 'invalid-request');
}
