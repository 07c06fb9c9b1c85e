import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ZAutomateReport,
  ZConnectorSourceStatus,
  ZImportRecord,
  ZImportRecordIdParam,
  ZImportResult,
  ZTransaction,
} from './connector-api.ts';
import { CONNECTOR_LIMITS } from './connector-fields.ts';
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

describe('the request schemas of the document say what the server accepts', () => {
  type Schema = Record<string, unknown>;
  const doc = connectorOpenApi() as {
    paths: Record<string, Record<string, { parameters?: { name: string; schema: Schema }[] }>>;
    components: { schemas: Record<string, Schema> };
  };
  const props = (schema: Schema | undefined): Record<string, Schema> =>
    (schema?.properties ?? {}) as Record<string, Schema>;
  const items = (schema: Schema | undefined): Schema | undefined => schema?.items as Schema | undefined;
  const { schemas } = doc.components;
  const record = props(items(props(schemas.ImportRecordsRequest).records));
  const result = props(schemas.ImportResult);
  const tx = props(items(props(schemas.TransactionsRequest).transactions));
  const automate = props(schemas.AutomateReport);
  const source = props(items(props(schemas.ConfigurationPatch).Sources));
  const resultPath = doc.paths['/api/connector/v1/import-records/{IDInterne}/result']?.post?.parameters;
  const idParam = resultPath?.find((p) => p.name === 'IDInterne')?.schema;

  /**
   * Each published field and its zod field (what the server checks); `integer`: a digit string's
   * range is not in the JSON Schema (its description says it); `path`: only texts reach it.
   */
  const fields: [string, Schema | undefined, z.ZodType, ('integer' | 'path')?][] = [
    ['records[].IDInterne', record.IDInterne, ZImportRecord.shape.IDInterne],
    ['records[].TypeEnreg', record.TypeEnreg, ZImportRecord.shape.TypeEnreg],
    ['records[].NumLigne', record.NumLigne, ZImportRecord.shape.NumLigne, 'integer'],
    ['records[].Etat', record.Etat, ZImportRecord.shape.Etat],
    ['result Etat', result.Etat, ZImportResult.shape.Etat],
    ['transactions[].ID', tx.ID, ZTransaction.shape.ID],
    ['transactions[].Err', tx.Err, ZTransaction.shape.Err],
    ['transactions[].LibelleTablette', tx.LibelleTablette, ZTransaction.shape.LibelleTablette],
    ['automate port', automate.port, ZAutomateReport.shape.port, 'integer'],
    ['automate version', automate.version, ZAutomateReport.shape.version],
    ['Sources[].index', source.index, ZConnectorSourceStatus.shape.index, 'integer'],
    ['path IDInterne', idParam, ZImportRecordIdParam.shape.IDInterne, 'path'],
  ];

  it('Etat is a code of its route, never a boolean; Err may be one', () => {
    const ajv = new Ajv2020({ strict: false });
    for (const [name, schema] of [
      ['records[].Etat', record.Etat],
      ['result Etat', result.Etat],
    ] as const) {
      expect(ajv.validate(schema as Schema, true), name).toBe(false);
      expect(ajv.validate(schema as Schema, 1), name).toBe(true);
    }
    expect(ajv.validate(record.Etat as Schema, 0)).toBe(true);
    expect(ajv.validate(result.Etat as Schema, 0)).toBe(false);
    expect(ajv.validate(tx.Err as Schema, true)).toBe(true);
  });

  it('gives the bounds: port 1–65 535, IDInterne ≤ 100, short texts ≤ 255, the path’s id ≤ 100', () => {
    expect(JSON.stringify(automate.port)).toContain('"minimum":1,"maximum":65535');
    expect(JSON.stringify(record.IDInterne)).toContain(`"maxLength":${CONNECTOR_LIMITS.idMaxChars}`);
    for (const text of [
      record.TypeEnreg,
      record.RefDoc,
      record.TypeElement,
      tx.NumTransaction,
      tx.IDTablette,
    ])
      expect(JSON.stringify(text)).toContain(`"maxLength":${CONNECTOR_LIMITS.shortTextMaxChars}`);
    const info = props(schemas.ConfigurationPatch).Info;
    expect(info?.maxProperties).toBe(CONNECTOR_LIMITS.configKeysMax);
    expect(idParam).toEqual({ type: 'string', maxLength: CONNECTOR_LIMITS.idMaxChars, pattern: '\\S' });
  });

  it('accepts exactly what the server’s checks accept, value by value', () => {
    const ajv = new Ajv2020({ strict: false });
    const samples: unknown[] = [
      ...[0, 1, -1, 2, -2, 1.5, 100, 65535, 65536, 8085, -2147483648, -2147483649, 2 ** 53, -(2 ** 53)],
      ...['0', '1', '-1', '+1', '01', ' 1 ', '-0', '-00', '2', '1.0', '1e3', '8085', ' 65535', '99'],
      ...['', ' ', '\t', 'x', ' a ', 'NUXIDEVA61267c591917f0e1', 'CrÃ©ation'],
      ...[99, 100, 101, 254, 255, 256].map((n) => 'x'.repeat(n)),
      ...[true, false, {}, [], ['1']],
    ];
    const problems: string[] = [];
    for (const [name, schema, field, kind] of fields) {
      expect(schema, name).toBeDefined();
      const validate = ajv.compile(schema as Schema);
      for (const sample of samples) {
        if (kind === 'integer' && typeof sample === 'string' && /^\s*[+-]?\d+\s*$/.test(sample)) continue;
        if (kind === 'path' && typeof sample !== 'string') continue;
        const server = field.safeParse(sample).success;
        const published = validate(sample);
        if (server !== published)
          problems.push(
            `${name} ${JSON.stringify(sample).slice(0, 20)}: server ${server}, document ${published}`,
          );
      }
    }
    expect(problems).toEqual([]);
  });
});
