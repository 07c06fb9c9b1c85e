import { Ajv2020 } from 'ajv/dist/2020.js';
import { connectorOpenApi } from '@synchro/contracts';

/**
 * Every answer the client is tested against, checked against the connector API's OpenAPI
 * document (packages/contracts, served by the console at /api/connector/v1/openapi.json): the
 * fake console cannot drift from the real one without a test failing.
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

/** Why an answer does not match the document (null when it does). */
export function offContract(method: string, path: string, status: number, body: unknown): string | null {
  const template = templates.find((t) => t.pattern.test(path));
  if (!template) return `${method} ${path} : route absente du document`;
  const operation = doc.paths[template.path]?.[method.toLowerCase()];
  if (!operation) return `${method} ${path} : méthode absente du document`;
  const answer = operation.responses[String(status)];
  if (!answer) return `${method} ${path} : statut ${status} absent du document`;
  const schema = answer.content?.['application/json']?.schema as { $ref?: string } | undefined;
  if (!schema) return null;
  const validate = ajv.getSchema(`openapi${(schema.$ref ?? '').replace('#', '#')}`);
  if (!validate) return `${method} ${path} : schéma ${schema.$ref} introuvable`;
  if (validate(body)) return null;
  return `${method} ${path} ${status} : ${ajv.errorsText(validate.errors)}`;
}
