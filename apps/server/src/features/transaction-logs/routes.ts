import {
  TRANSACTION_LOGS_CSV_HEADERS,
  TRANSACTION_LOGS_EXPORT_PATH,
  TRANSACTION_LOGS_PATH,
  ZTransactionLogsExportQuery,
  ZTransactionLogsQuery,
  type TTransactionLogDetail,
  type TTransactionLogsPage,
} from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { auditHistoryExport, csvRowsOf } from '../../domain/history-export.ts';
import { displayTimeZoneOf } from '../../domain/display-zone.ts';
import { csvFileName, holdExportSlot, sendCsv } from '../../http/csv.ts';
import { currentSignIn, requireSession } from '../../http/session-guard.ts';
import { parseOr400 } from '../../http/validate.ts';
import {
  TRANSACTION_LOGS,
  transactionDetail,
  TRANSACTION_CSV,
  transactionFilters,
  listTransactions,
} from './service.ts';

const EXPORT_BATCH = 5000;

export function transactionLogsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const preHandler = requireSession(ctx);

  app.get(TRANSACTION_LOGS_PATH, { preHandler }, async (request): Promise<TTransactionLogsPage> => {
    const query = parseOr400(ZTransactionLogsQuery, request.query);
    const displayTimeZone = await displayTimeZoneOf(ctx, currentSignIn(request));
    return listTransactions(
      ctx.db,
      currentSignIn(request).installation.id,
      query,
      displayTimeZone,
      ctx.historyRetentionDays,
      ctx.sessionSecret,
    );
  });

  app.get<{ Params: { id: string } }>(
    `${TRANSACTION_LOGS_PATH}/:id`,
    { preHandler },
    async (request): Promise<TTransactionLogDetail> =>
      transactionDetail(ctx.db, currentSignIn(request).installation.id, request.params.id),
  );

  app.get(TRANSACTION_LOGS_EXPORT_PATH, { preHandler }, async (request, reply) => {
    const query = parseOr400(ZTransactionLogsExportQuery, request.query);
    const { zone } = await displayTimeZoneOf(ctx, currentSignIn(request));
    const filters = transactionFilters(query, zone);
    const { installation } = currentSignIn(request);
    await holdExportSlot(ctx.exports, installation.id, reply.raw);
    await auditHistoryExport(
      ctx.db,
      { installationId: installation.id, syncId: installation.syncId, address: request.ip },
      TRANSACTION_LOGS,
      filters,
    );
    const rows = csvRowsOf(ctx.db, TRANSACTION_CSV, installation.id, filters, zone, EXPORT_BATCH);
    return sendCsv(
      reply,
      csvFileName('trace-transactions', ctx.now(), zone),
      TRANSACTION_LOGS_CSV_HEADERS,
      rows,
    );
  });
}
