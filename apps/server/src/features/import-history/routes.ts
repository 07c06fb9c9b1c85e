import {
  HISTORY_MESSAGES,
  SYNC_HISTORY_CSV_HEADERS,
  SYNC_HISTORY_EXPORT_PATH,
  SYNC_HISTORY_BULK_STATUS_PATH,
  SYNC_HISTORY_PATH,
  ZSyncHistoryBulkStatusRequest,
  ZSyncHistoryExportQuery,
  ZSyncHistoryQuery,
  ZSyncHistoryStatusRequest,
  type TSyncHistoryBulkStatusAnswer,
  type TSyncHistoryPage,
  type TSyncHistoryStatusAnswer,
  type TSyncHistoryXml,
  type TSyncHistoryXmlError,
  type TSyncHistoryXmlSaved,
} from '@synchro/contracts';
import { decodeConnectorText, RECORD_MAX_BYTES } from '@synchro/config-xml';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { auditHistoryExport, csvRowsOf, type HistoryActor } from '../../domain/history-export.ts';
import { displayTimeZoneOf } from '../../domain/display-zone.ts';
import { ensureStorageRoom } from '../../domain/storage.ts';
import { holdBody } from '../../http/body-budget.ts';
import { csvFileName, holdExportSlot, sendCsv } from '../../http/csv.ts';
import { asksForText } from '../../http/accept.ts';
import { attachmentDisposition, contentTypeOf } from '../../http/download.ts';
import { AppError } from '../../http/errors.ts';
import { currentSignIn, requireSession } from '../../http/session-guard.ts';
import { installRawJsonBodies } from '../../http/json-body.ts';
import { parseOr400 } from '../../http/validate.ts';
import { runBySize, runOnBody } from '../../offload/pool.ts';
import { xmlTooLargeBody } from './record-xml.ts';
import { xmlSaveTask, xmlViewTask } from './record-xml-tasks.ts';
import {
  bulkSetStatus,
  HISTORY_CSV,
  historyFilters,
  IMPORT_RECORDS,
  listHistory,
  recordFile,
  recordText,
  setStatus,
  storeRecordXml,
} from './service.ts';

/**
 * Body limit of PUT …/xml only: a 50 MB record with its JSON escaping. Above it fastify stops
 * reading and the route answers the same 413 as for a record over 50 MB.
 */
const XML_BODY_LIMIT = 2 * RECORD_MAX_BYTES;
const EXPORT_BATCH = 5000;

interface IdParams {
  id: string;
}

function actorOf(request: FastifyRequest): HistoryActor {
  const { installation } = currentSignIn(request);
  return { installationId: installation.id, syncId: installation.syncId, address: request.ip };
}

/** The XML save's failures carry `error` too (the earlier screen read it: docs/spec-notes.md). */
function xmlSaveErrors(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    const body: TSyncHistoryXmlError = xmlTooLargeBody(Number(request.headers['content-length']) || 0);
    return reply.status(413).send(body);
  }
  if (error instanceof AppError) {
    for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
    const body: TSyncHistoryXmlError = {
      message: error.message,
      ...(error.code ? { code: error.code } : {}),
      error: error.message,
    };
    return reply.status(error.status).send(body);
  }
  // Anything else: the server's own handler (French messages, no detail leaked).
  throw error;
}

export function importHistoryRoutes(app: FastifyInstance, ctx: AppContext): void {
  const preHandler = requireSession(ctx);
  const recordPath = (part: string) => `${SYNC_HISTORY_PATH}/:id/${part}`;

  app.get(SYNC_HISTORY_PATH, { preHandler }, async (request): Promise<TSyncHistoryPage> => {
    const query = parseOr400(ZSyncHistoryQuery, request.query);
    const displayTimeZone = await displayTimeZoneOf(ctx, currentSignIn(request));
    return listHistory(
      ctx.db,
      currentSignIn(request).installation.id,
      query,
      displayTimeZone,
      ctx.historyRetentionDays,
      ctx.sessionSecret,
    );
  });

  app.post(
    SYNC_HISTORY_BULK_STATUS_PATH,
    { preHandler },
    async (request): Promise<TSyncHistoryBulkStatusAnswer> => {
      const body = parseOr400(ZSyncHistoryBulkStatusRequest, request.body);
      const { zone } = await displayTimeZoneOf(ctx, currentSignIn(request));
      return bulkSetStatus(ctx.db, actorOf(request), body, zone, ctx.now());
    },
  );

  app.patch<{ Params: IdParams }>(
    recordPath('status'),
    { preHandler },
    async (request): Promise<TSyncHistoryStatusAnswer> => {
      const { newStatus } = parseOr400(ZSyncHistoryStatusRequest, request.body);
      return setStatus(ctx.db, actorOf(request), request.params.id, newStatus, ctx.now());
    },
  );

  app.get<{ Params: IdParams }>(
    recordPath('xml'),
    { preHandler },
    async (request): Promise<TSyncHistoryXml> => {
      const installationId = currentSignIn(request).installation.id;
      const stored = await recordText(ctx.db, installationId, request.params.id, 'enreg');
      return runBySize(ctx.offload.for(installationId), xmlViewTask, stored, stored.length);
    },
  );

  // The XML save reads its body itself: up to 50 MB of JSON, parsed in a worker thread (offload/).
  void app.register(async (scope) => {
    installRawJsonBodies(scope);
    scope.put<{ Params: IdParams }>(
      recordPath('xml'),
      {
        preHandler,
        // After the session check (session-guard.ts): the body's bytes in the memory budget.
        onRequest: async (request, reply) =>
          holdBody(ctx.bodies, currentSignIn(request).installation.id, request, reply),
        bodyLimit: XML_BODY_LIMIT,
        errorHandler: xmlSaveErrors,
      },
      async (request, reply): Promise<TSyncHistoryXmlSaved | FastifyReply> => {
        const body = request.body instanceof Uint8Array ? request.body : new Uint8Array(0);
        const { installation } = currentSignIn(request);
        const checked = await runOnBody(ctx.offload.for(installation.id), xmlSaveTask, { body });
        if (checked.tooLarge) return reply.status(413).send(checked.tooLarge);
        await ensureStorageRoom(ctx.db, installation.id, checked.sizeBytes, ctx.storageQuotaBytes);
        await storeRecordXml(
          ctx,
          actorOf(request),
          request.params.id,
          checked.stored,
          checked.sizeBytes,
          ctx.now(),
        );
        return {
          message: HISTORY_MESSAGES.xmlSaved,
          IDInterne: request.params.id,
          sizeBytes: checked.sizeBytes,
        };
      },
    );
  });

  app.get<{ Params: IdParams }>(recordPath('file'), { preHandler }, async (request, reply) => {
    const file = await recordFile(ctx.db, currentSignIn(request).installation.id, request.params.id);
    return reply
      .header('Content-Type', contentTypeOf(file.name))
      .header('Content-Disposition', attachmentDisposition(file.name))
      .header('Cache-Control', 'no-store')
      .send(file.content);
  });

  // Text to a client that asks for it (our screens), else a JSON string: the earlier console's
  // client reads it with res.json() and asks with Accept: */* (docs/earlier-client.md).
  app.get<{ Params: IdParams }>(recordPath('log'), { preHandler }, async (request, reply) => {
    const log = decodeConnectorText(
      await recordText(ctx.db, currentSignIn(request).installation.id, request.params.id, 'log'),
    );
    void reply.header('Cache-Control', 'no-store').header('Vary', 'Accept');
    if (asksForText(request.headers.accept))
      return reply.header('Content-Type', 'text/plain; charset=utf-8').send(log);
    return reply.header('Content-Type', 'application/json; charset=utf-8').send(JSON.stringify(log));
  });

  app.get(SYNC_HISTORY_EXPORT_PATH, { preHandler }, async (request, reply) => {
    const query = parseOr400(ZSyncHistoryExportQuery, request.query);
    const { zone } = await displayTimeZoneOf(ctx, currentSignIn(request));
    const filters = historyFilters(query, zone);
    const actor = actorOf(request);
    await holdExportSlot(ctx.exports, actor.installationId, reply.raw);
    await auditHistoryExport(ctx.db, actor, IMPORT_RECORDS, filters);
    const rows = csvRowsOf(ctx.db, HISTORY_CSV, actor.installationId, filters, zone, EXPORT_BATCH);
    return sendCsv(
      reply,
      csvFileName('historique-importation', ctx.now(), zone),
      SYNC_HISTORY_CSV_HEADERS,
      rows,
    );
  });
}
