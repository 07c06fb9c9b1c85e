import { z } from 'zod';
import {
  CONNECTOR_ERROR_CODES,
  ZAutomateReport,
  ZAutomateReportAnswer,
  ZConnectorBatchAnswer,
  ZConnectorConfigPatch,
  ZConnectorConfigPatchAnswer,
  ZConnectorError,
  ZImportQueueAnswer,
  ZImportRecordIdParam,
  ZImportResult,
  ZImportResultAnswer,
  ZImportRecordsRequest,
  ZTransactionsRequest,
  type TConnectorErrorCode,
} from './connector-api.ts';
import { VERSION_AUTHOR_LABELS } from './config-history.ts';
import { CONNECTOR_LIMITS, publishedInput } from './connector-fields.ts';
import { ZDriveAccessTokenAnswer } from './drive.ts';

/**
 * The connector API v1 as an OpenAPI 3.1 document, generated from the zod contracts the server
 * checks requests with (one source of truth): served at /api/connector/v1/openapi.json and read
 * by /docs/connector. A server test compares its paths with the routes the server registers.
 */

const BASE = '/api/connector/v1';

type Schema = Record<string, unknown>;

/**
 * A zod schema as JSON Schema (draft 2020-12, OpenAPI 3.1's): what is sent, or what is answered.
 * What is sent says what the server accepts: each field built by connector-fields.ts is written as
 * that file publishes it (its bounds, its types), from the same arguments as its checks.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Schema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema: json }) => {
      const own = io === 'input' ? publishedInput(zodSchema) : undefined;
      if (own === undefined) return;
      for (const key of Object.keys(json)) delete (json as Schema)[key];
      Object.assign(json, own);
    },
  }) as Schema;
  return rest;
}

/** Built when the document is asked for (no work when the module is only imported). */
const schemas = () => ({
  AutomateReport: jsonSchema(ZAutomateReport, 'input'),
  AutomateReportAnswer: jsonSchema(ZAutomateReportAnswer, 'output'),
  ConfigurationPatch: jsonSchema(ZConnectorConfigPatch, 'input'),
  ConfigurationPatchAnswer: jsonSchema(ZConnectorConfigPatchAnswer, 'output'),
  ImportRecordsRequest: jsonSchema(ZImportRecordsRequest, 'input'),
  BatchAnswer: jsonSchema(ZConnectorBatchAnswer, 'output'),
  ImportQueueAnswer: jsonSchema(ZImportQueueAnswer, 'output'),
  ImportResult: jsonSchema(ZImportResult, 'input'),
  ImportResultAnswer: jsonSchema(ZImportResultAnswer, 'output'),
  TransactionsRequest: jsonSchema(ZTransactionsRequest, 'input'),
  DriveAccessTokenAnswer: jsonSchema(ZDriveAccessTokenAnswer, 'output'),
  ConnectorError: jsonSchema(ZConnectorError, 'output'),
});
export type ConnectorSchemaName = keyof ReturnType<typeof schemas>;

const ref = (name: ConnectorSchemaName) => ({ $ref: `#/components/schemas/${name}` });

/** A path parameter checked with a text field of the contracts: its string form (a path is text). */
function pathText(field: z.ZodType): Schema {
  const { anyOf } = jsonSchema(field, 'input') as { anyOf?: Schema[] };
  const text = anyOf?.find((s) => s.type === 'string');
  if (!text) throw new Error('a path parameter is a text field');
  return text;
}

/** Examples of each call (a test checks each against its zod contract). */
export const CONNECTOR_EXAMPLES = {
  // A public address: the server refuses the documentation ranges (192.0.2/24, 198.51.100/24,
  // 203.0.113/24) as addresses it would send orders to (docs/connector-api.md, Automate address).
  AutomateReport: { port: 8085, version: '6.11.23.9', machineName: 'SRV-ERP', ip: '198.51.99.10' },
  AutomateReportAnswer: { ip: '198.51.99.10', port: 8085, registeredAt: '2025-11-14T08:12:00.000Z' },
  // The contract's own example (design/connector-api.md): the connector's element names, its
  // values as it writes them in its document (`DateHeure` digits, text UTF-8 read as Latin-1).
  ConfigurationPatch: {
    Info: {
      VersionConnecteur: '6.19.4',
      NuxiAutomateInstall: '1',
      NuxiAutomateLibelle: 'Version : 6.11.23.9',
      DateMAJConfig: '20251114093300664',
      Exe: 'C:\\...\\Connecteur.exe',
      Serial: '...',
    },
    DerSynchro: {
      DateHeure: '20251114080952542',
      TypeDeSync: 'ComplÃ¨te',
      Duree: '00:04:11',
      DureeAlerte: '0',
      NbEnreg: '1838',
      Vitesse: '5927',
      Taille: '3,721 Mo',
      TailleAlerte: '0',
    },
    Sources: [{ index: 1, Status: '1', StatusLibelle: 'Cnx 1 Ok : SQL' }],
    Data: '<Data>...</Data>',
  },
  ConfigurationPatchAnswer: { version: 42 },
  ImportRecordsRequest: {
    records: [
      {
        IDInterne: '000123',
        TypeEnreg: 'DocumentDEVIS',
        RefDoc: 'DE00042',
        DateHeure: '2025-11-14T09:12:00',
        NumLigne: 1,
        TypeElement: 'CrÃ©ation',
        Etat: 0,
        Enreg: '<SyncNuxiDev><Client>Durand</Client></SyncNuxiDev>',
      },
    ],
  },
  BatchAnswer: { inserted: 1, duplicates: 0 },
  ImportQueueAnswer: {
    records: [
      {
        IDInterne: '000123',
        TypeEnreg: 'DocumentDEVIS',
        RefDoc: 'DE00042',
        DateHeure: '2025-11-14T09:12:00.000+01:00',
        NumLigne: 1,
        TypeElement: 'CrÃ©ation',
        Enreg: '<SyncNuxiDev><Client>Durand</Client></SyncNuxiDev>',
      },
    ],
  },
  ImportResult: { Etat: 1, Log: 'Importé dans la gestion commerciale' },
  ImportResultAnswer: { IDInterne: '000123', Etat: 1 },
  TransactionsRequest: {
    transactions: [
      {
        ID: 'T-000981',
        Err: 0,
        DateHeureTrt: '2025-11-14T09:15:30',
        NumTransaction: '981',
        TypeDoc: 'BL',
        RefDoc: 'BL00981',
        IDTablette: 'TAB-07',
        LibelleTablette: 'Tablette atelier',
        Log: 'Livraison enregistrée',
      },
    ],
  },
  DriveAccessTokenAnswer: {
    Type_Drive: 'google',
    Compte: 'ged@example.com',
    access_token: 'ya29.exemple',
    token_type: 'Bearer',
    expires_in: 3300,
    expires_at: '2025-11-14T10:12:00.000Z',
  },
} satisfies Partial<Record<ConnectorSchemaName, unknown>>;

/** The contracts of the examples, to check them. */
export const CONNECTOR_EXAMPLE_CONTRACTS: Record<keyof typeof CONNECTOR_EXAMPLES, z.ZodType> = {
  AutomateReport: ZAutomateReport,
  AutomateReportAnswer: ZAutomateReportAnswer,
  ConfigurationPatch: ZConnectorConfigPatch,
  ConfigurationPatchAnswer: ZConnectorConfigPatchAnswer,
  ImportRecordsRequest: ZImportRecordsRequest,
  BatchAnswer: ZConnectorBatchAnswer,
  ImportQueueAnswer: ZImportQueueAnswer,
  ImportResult: ZImportResult,
  ImportResultAnswer: ZImportResultAnswer,
  TransactionsRequest: ZTransactionsRequest,
  DriveAccessTokenAnswer: ZDriveAccessTokenAnswer,
};

const ERROR_MEANINGS: Record<TConnectorErrorCode, string> = {
  'invalid-request': 'The body or the query is invalid: `message` names every faulty field.',
  'address-refused': 'An address the console does not send orders to (AUTOMATE_NETWORKS).',
  unauthorized: 'Token missing, malformed or unknown.',
  forbidden: 'Installation suspended or expired.',
  'not-found': 'No such record.',
  // What a conflict is depends on the route: each route that can answer 409 says it (CONFLICTS).
  conflict: 'The request conflicts with the state of the installation: see the route.',
  'payload-too-large': 'The body is over the route’s limit: send fewer items per request.',
  'unsupported-media-type': 'Only `application/json` is accepted.',
  'unreadable-configuration': 'The stored configuration cannot be read: the administrator repairs it.',
  'too-many-requests': 'Rate limit of the route group: wait `Retry-After` seconds.',
  'internal-error': 'Fault of the server: retry later.',
  unavailable:
    'The database cannot answer for a moment, or the server is restarting: retry after `Retry-After` seconds.',
  'server-busy':
    'The server holds as many bytes of this installation’s requests as it allows: send the same request again after `Retry-After` seconds. Not a failure: nothing was written.',
  'insufficient-storage': 'The installation’s storage quota would be passed: nothing was written.',
};

/** The 409 of each route that can answer it, in its own words (operation's `conflict`). */
const batchConflict = (id: string) =>
  `Another batch with some of the same \`${id}\` was being written at the very same moment and the database stopped this one (deadlock): nothing of it was written. Send the same request again (batches are idempotent on \`${id}\`).`;
const CONFLICTS = {
  importRecords: batchConflict('IDInterne'),
  transactions: batchConflict('ID'),
  drive:
    'The drive link cannot give a token: the provider no longer honours it (revoked or expired; the console then shows it revoked), or this server no longer has an OAuth client for its provider. Sending again does not help until an administrator connects the drive again in the console (Complément, « Connecter »).',
};

/**
 * Requests per installation and minute, by route group: the server's defaults (a server test
 * compares them with DEFAULT_RATE_LIMITS of features/connector/limits.ts).
 */
export const CONNECTOR_RATE_LIMITS = {
  automate: 60,
  'configuration-read': 120,
  'configuration-write': 120,
  'import-records': 3000,
  'import-queue': 600,
  'import-result': 6000,
  transactions: 3000,
  'drive-token': 120,
} as const;
type RateGroup = keyof typeof CONNECTOR_RATE_LIMITS;

/** The statuses whose answer says when to send again. */
const RETRY_AFTER = new Set([429, 503]);

/** The error answers of an operation; `meanings`: what a code means on this route, when its own. */
function errorResponses(
  statuses: readonly number[],
  meanings: Partial<Record<TConnectorErrorCode, string>> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const status of statuses) {
    const codes = (Object.entries(CONNECTOR_ERROR_CODES) as [TConnectorErrorCode, number][]).filter(
      ([, s]) => s === status,
    );
    if (status === 409 && meanings.conflict === undefined)
      throw new Error('A route that answers 409 says what its conflict is.');
    out[String(status)] = {
      description: codes.map(([code]) => `\`${code}\`: ${meanings[code] ?? ERROR_MEANINGS[code]}`).join(' '),
      ...(RETRY_AFTER.has(status)
        ? {
            headers: {
              'Retry-After': {
                description: 'Seconds to wait before sending the same request again.',
                schema: { type: 'integer', minimum: 1 },
              },
            },
          }
        : {}),
      content: {
        'application/json': {
          schema: ref('ConnectorError'),
          example: { error: codes[0]?.[0] ?? 'internal-error', message: 'Message en français.' },
        },
      },
    };
  }
  return out;
}

/** Every route answers these (token, rate limit, database, server). */
const COMMON_ERRORS = [401, 403, 429, 500, 503];
/** And a route with a body these. */
const BODY_ERRORS = [400, 413, 415];

const json = (name: ConnectorSchemaName) => ({
  'application/json': {
    schema: ref(name),
    ...(name in CONNECTOR_EXAMPLES
      ? { example: CONNECTOR_EXAMPLES[name as keyof typeof CONNECTOR_EXAMPLES] }
      : {}),
  },
});

function operation(op: {
  id: string;
  summary: string;
  description: string;
  request?: ConnectorSchemaName;
  answer?: ConnectorSchemaName;
  errors: number[];
  /** What the route's 409 means (required when it answers 409). */
  conflict?: string;
  rateGroup: RateGroup;
  extra?: Record<string, unknown>;
}) {
  const perMinute = CONNECTOR_RATE_LIMITS[op.rateGroup];
  return {
    operationId: op.id,
    summary: op.summary,
    description: `${op.description}\n\nRate limit: ${nf.format(perMinute)} requests per minute and installation (group \`${op.rateGroup}\`, shared with the other routes of the group).`,
    'x-rate-limit-per-minute': perMinute,
    tags: ['Connecteur'],
    security: [{ bearer: [] }],
    ...(op.request ? { requestBody: { required: true, content: json(op.request) } } : {}),
    responses: {
      ...(op.answer ? { '200': { description: 'OK', content: json(op.answer) } } : {}),
      ...errorResponses(
        [...new Set([...op.errors, ...COMMON_ERRORS])].sort((a, b) => a - b),
        op.conflict === undefined ? {} : { conflict: op.conflict },
      ),
    },
    ...op.extra,
  };
}

const nf = new Intl.NumberFormat('en-US');

const DESCRIPTION = `The API a connector uses to talk to the console (docs/connector-api.md in the repository).

**Authentication.** \`Authorization: Bearer <token>\`, the installation's connector token: printed once by \`npm run admin -- create-installation\`, replaced by \`npm run admin -- rotate-connector-token --sync-id ID\` (which prints the new one; the old one stops working at once). Only its hash is stored.

**Errors.** Every error is \`{ "error": code, "message": French text }\`. A 400 names every faulty field (\`records[3].DateHeure : …\`).

**Limits.** At most ${nf.format(CONNECTOR_LIMITS.recordsPerRequest)} records and ${nf.format(CONNECTOR_LIMITS.transactionsPerRequest)} transactions per request; an \`Enreg\` of ${nf.format(CONNECTOR_LIMITS.enregMaxBytes / 1024 / 1024)} MB at most; bodies over their route's limit get 413.

**Rate limits.** Per installation and route group, per minute (${Object.entries(CONNECTOR_RATE_LIMITS)
  .map(([group, n]) => `${group} ${nf.format(n)}`)
  .join(', ')}; each operation gives its own): beyond, 429 with \`Retry-After\`.

**Retries.** 429, 503 (\`unavailable\`, \`server-busy\`) and network errors: send the same request again after \`Retry-After\` seconds (1 s without it), with the same ids: batches are idempotent on \`IDInterne\` / \`ID\` (a second send counts duplicates, writes nothing twice) and all or nothing. 507: nothing was written; stop sending until the quota is raised. 409 on a batch: another batch with the same ids was written at the same moment and nothing of this one was: send it again. 409 on the drive token: the drive must be connected again in the console; asking again does not help. Other 4xx: fix the request.

**Text convention.** Texts of the connector are UTF-8 bytes read as Latin-1 (\`été\` is sent \`Ã©tÃ©\`), in records' \`Enreg\` and in the configuration; the console decodes them for display and encodes what it writes back.`;

/** The OpenAPI 3.1 document of the connector API v1. */
export function connectorOpenApi(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Console Synchro — API connecteur', version: '1', description: DESCRIPTION },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: schemas(),
    },
    paths: {
      [`${BASE}/automate`]: {
        post: operation({
          id: 'registerAutomate',
          rateGroup: 'automate',
          summary: 'Déclarer l’automate',
          description:
            'The automate service tells where the console sends sync orders (its address and port).',
          request: 'AutomateReport',
          answer: 'AutomateReportAnswer',
          errors: BODY_ERRORS,
        }),
      },
      [`${BASE}/configuration`]: {
        get: {
          ...operation({
            id: 'readConfiguration',
            rateGroup: 'configuration-read',
            summary: 'Lire la configuration',
            description:
              'The stored configuration XML with its version as `ETag`, byte for byte (it is not parsed: an unreadable one is given as it is); `If-None-Match` with that ETag answers 304 when unchanged.',
            errors: [],
          }),
          parameters: [{ name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } }],
          responses: {
            '200': {
              description: 'The configuration XML',
              headers: { ETag: { schema: { type: 'string' } } },
              content: { 'application/xml': { schema: { type: 'string' } } },
            },
            '304': { description: 'Unchanged since the given ETag' },
            ...errorResponses(COMMON_ERRORS),
          },
        },
        patch: operation({
          id: 'writeConfigurationParts',
          rateGroup: 'configuration-write',
          summary: 'Écrire les parties du connecteur',
          description: `Info, DerSynchro, the sources’ states and Data: the nodes the connector owns. A new configuration version, stored with author \`connector\` (the configuration history screen shows it as « ${VERSION_AUTHOR_LABELS.connector} », folded with the connector’s other updates unless they are asked for); a patch that changes nothing writes no version and answers the current one.`,
          request: 'ConfigurationPatch',
          answer: 'ConfigurationPatchAnswer',
          // No 409: the configuration row is locked before the compare-and-swap (a console save
          // made at the same moment waits, and both survive). No 507: no storage quota is checked.
          errors: [...BODY_ERRORS, 422],
        }),
      },
      [`${BASE}/import-records`]: {
        post: operation({
          id: 'sendImportRecords',
          rateGroup: 'import-records',
          summary: 'Envoyer des enregistrements à importer',
          description: 'All or nothing; idempotent on `IDInterne` (duplicates counted, not written).',
          request: 'ImportRecordsRequest',
          answer: 'BatchAnswer',
          errors: [...BODY_ERRORS, 409, 507],
          conflict: CONFLICTS.importRecords,
        }),
      },
      [`${BASE}/import-records/queue`]: {
        get: {
          ...operation({
            id: 'readImportQueue',
            rateGroup: 'import-queue',
            summary: 'Lire la file d’import',
            description: 'The records waiting to be imported into the ERP (state 0), oldest first.',
            answer: 'ImportQueueAnswer',
            errors: [400],
          }),
          parameters: [
            {
              name: 'limit',
              in: 'query',
              required: false,
              schema: {
                type: 'integer',
                minimum: 1,
                maximum: CONNECTOR_LIMITS.queueMax,
                default: CONNECTOR_LIMITS.queueDefault,
              },
            },
          ],
        },
      },
      [`${BASE}/import-records/{IDInterne}/result`]: {
        post: {
          ...operation({
            id: 'sendImportResult',
            rateGroup: 'import-result',
            summary: 'Donner le résultat d’un import',
            description: 'Imported (1) or in error (-1), with its log and an optional produced file.',
            request: 'ImportResult',
            answer: 'ImportResultAnswer',
            errors: [...BODY_ERRORS, 404, 507],
          }),
          parameters: [
            {
              name: 'IDInterne',
              in: 'path',
              required: true,
              description:
                'The record’s `IDInterne`, percent-encoded. An id no record can have (blank, too long) answers 404 like an unknown one.',
              schema: pathText(ZImportRecordIdParam.shape.IDInterne),
            },
          ],
        },
      },
      [`${BASE}/transactions`]: {
        post: operation({
          id: 'sendTransactions',
          rateGroup: 'transactions',
          summary: 'Envoyer des transactions',
          description: 'All or nothing; idempotent on `ID` (duplicates counted, not written).',
          request: 'TransactionsRequest',
          answer: 'BatchAnswer',
          errors: [...BODY_ERRORS, 409, 507],
          conflict: CONFLICTS.transactions,
        }),
      },
      [`${BASE}/drive/access-token`]: {
        get: operation({
          id: 'readDriveAccessToken',
          rateGroup: 'drive-token',
          summary: 'Jeton d’accès au Drive',
          description:
            'A short-lived access token of the installation’s drive link (« Connecter » on Complément), refreshed by the console. 404 when no drive is linked.',
          answer: 'DriveAccessTokenAnswer',
          errors: [404, 409],
          conflict: CONFLICTS.drive,
        }),
      },
    },
  };
}
