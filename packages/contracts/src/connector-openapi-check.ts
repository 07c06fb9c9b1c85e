import { Ajv2020 } from 'ajv/dist/2020.js';
import { connectorOpenApi } from './connector-openapi.ts';

/**
 * Checks an answer of the connector API against its OpenAPI document (tests only: the server's
 * real answers in apps/server/test/operations.test.ts, the automate simulator's fake console in
 * tools/automate-sim). Imported as `@synchro/contracts/connector-openapi-check`, never by the
 * index: ajv stays out of the server and the web app.
 */
interface Operation {
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
const doc = connectorOpenApi() as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'openapi', components: doc.components }, 'openapi');

const templates = Object.keys(doc.paths).map((path) => ({
  path,
  pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/** Why an answer does not match the document (null when it does). `path` without its query. */
export function offContract(method: string, path: string, status: number, body: unknown): string | null {
  const template = templates.find((t) => t.pattern.test(path));
  if (!template) return `${method} ${path} : route absente du document`;
  const operation = doc.paths[template.path]?.[method.toLowerCase()];
  if (!operation) return `${method} ${path} : méthode absente du document`;
  const answer = operation.responses[String(status)];
  if (!answer) return `${method} ${path} : statut ${status} absent du document`;
  const schema = answer.content?.['application/json']?.schema as { $ref?: string } | undefined;
  if (!schema) return null;
  const validate = ajv.getSchema(`openapi${schema.$ref ?? ''}`);
  if (!validate) return `${method} ${path} : schéma ${schema.$ref} introuvable`;
  if (validate(body)) return null;
  return `${method} ${path} ${status} : ${ajv.errorsText(validate.errors)}`;
}
