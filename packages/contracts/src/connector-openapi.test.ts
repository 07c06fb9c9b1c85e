import { describe, expect, it } from 'vitest';
import {
  CONNECTOR_EXAMPLE_CONTRACTS,
  CONNECTOR_EXAMPLES,
  CONNECTOR_RATE_LIMITS,
  connectorOpenApi,
} from './connector-openapi.ts';

describe('the connector API as OpenAPI 3.1', () => {
  const doc = connectorOpenApi() as {
    openapi: string;
    paths: Record<string, Record<string, { responses: Record<string, unknown>; operationId: string }>>;
    components: { schemas: Record<string, { type?: string }> };
  };

  it('is an OpenAPI 3.1 document whose schemas come from the contracts', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.schemas.ImportRecordsRequest?.type).toBe('object');
    expect(JSON.stringify(doc.components.schemas.ImportRecordsRequest)).toContain('"maxItems":500');
    expect(JSON.stringify(doc)).not.toContain('$schema');
  });

  it('gives every operation an id, an answer and the errors every route may give', () => {
    const ops = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
    expect(ops.length).toBe(8);
    for (const op of ops) {
      expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '429', '503']));
    }
  });

  it('gives every operation its rate limit, and the answers 429 and 503 their Retry-After', () => {
    const ops = Object.values(doc.paths).flatMap((methods) => Object.values(methods)) as unknown as {
      'x-rate-limit-per-minute': number;
      description: string;
      responses: Record<string, { headers?: Record<string, unknown> }>;
    }[];
    for (const op of ops) {
      expect(Object.values(CONNECTOR_RATE_LIMITS)).toContain(op['x-rate-limit-per-minute']);
      expect(op.description).toMatch(/Rate limit: [\d,]+ requests per minute/);
      expect(op.responses['429']?.headers?.['Retry-After']).toBeDefined();
      expect(op.responses['503']?.headers?.['Retry-After']).toBeDefined();
      expect(op.responses['400']?.headers).toBeUndefined();
    }
  });

  it('says on each route that can answer 409 what its conflict is', () => {
    const conflictOf = (path: string, method: string) =>
      (
        doc.paths[`/api/connector/v1${path}`]?.[method]?.responses['409'] as
          { description?: string } | undefined
      )?.description;
    const records = conflictOf('/import-records', 'post');
    const transactions = conflictOf('/transactions', 'post');
    const drive = conflictOf('/drive/access-token', 'get');
    expect(records).toMatch(
      /^`conflict`: Another batch with some of the same `IDInterne`.*Send the same request again/,
    );
    expect(transactions).toMatch(
      /^`conflict`: Another batch with some of the same `ID`.*Send the same request again/,
    );
    expect(drive).toMatch(/^`conflict`: The drive link cannot give a token.*connects the drive again/);
    for (const text of [records, transactions, drive]) expect(text).not.toContain('configuration changed');
  });

  it('lists on the configuration routes only the statuses they can answer', () => {
    const statuses = (method: string) =>
      Object.keys(doc.paths['/api/connector/v1/configuration']?.[method]?.responses ?? {});
    // GET never parses the stored text (no 422); PATCH locks the row before its compare-and-swap
    // (no 409) and checks no storage quota (no 507); it parses the stored text (422).
    expect(statuses('get')).toEqual(['200', '304', '401', '403', '429', '500', '503']);
    expect(statuses('patch')).toEqual(['200', '400', '401', '403', '413', '415', '422', '429', '500', '503']);
  });

  it('says where the connector token comes from, as the contract does', () => {
    const { description } = (doc as unknown as { info: { description: string } }).info;
    expect(description).toContain('printed once by `npm run admin -- create-installation`');
    expect(description).toContain('replaced by `npm run admin -- rotate-connector-token --sync-id ID`');
    expect(description).not.toMatch(/given once by `npm run admin -- rotate-connector-token`/);
  });

  it.each(Object.keys(CONNECTOR_EXAMPLES))('its example %s passes its zod contract', (name) => {
    const key = name as keyof typeof CONNECTOR_EXAMPLES;
    const parsed = CONNECTOR_EXAMPLE_CONTRACTS[key].safeParse(CONNECTOR_EXAMPLES[key]);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });
});
