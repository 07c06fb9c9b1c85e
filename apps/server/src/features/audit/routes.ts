import {
  AUDIT_EXPORT_PATH,
  AUDIT_PATH,
  ZAuditExportQuery,
  ZAuditQuery,
  type TAuditPage,
} from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { displayTimeZoneOf } from '../../domain/display-zone.ts';
import { auditHistoryExport, csvRowsOf } from '../../domain/history-export.ts';
import { csvFileName, holdExportSlot, sendCsv } from '../../http/csv.ts';
import { currentSignIn, requireSession } from '../../http/session-guard.ts';
import { parseOr400 } from '../../http/validate.ts';
import { AUDIT_CSV, AUDIT_CSV_HEADERS, AUDIT_LOG, auditFilters, listAudit } from './service.ts';

const EXPORT_BATCH = 5000;

/** The audit journal of the signed-in installation (docs/audit.md): list and CSV export. */
export function auditRoutes(app: FastifyInstance, ctx: AppContext): void {
  const preHandler = requireSession(ctx);

  app.get(AUDIT_PATH, { preHandler }, async (request): Promise<TAuditPage> => {
    const query = parseOr400(ZAuditQuery, request.query);
    const signIn = currentSignIn(request);
    const displayTimeZone = await displayTimeZoneOf(ctx, signIn);
    return listAudit(
      ctx.db,
      signIn.installation.id,
      query,
      displayTimeZone,
      ctx.sessionSecret,
      ctx.auditRetentionDays,
    );
  });

  app.get(AUDIT_EXPORT_PATH, { preHandler }, async (request, reply) => {
    const query = parseOr400(ZAuditExportQuery, request.query);
    const signIn = currentSignIn(request);
    const { zone } = await displayTimeZoneOf(ctx, signIn);
    const filters = auditFilters(query, zone);
    const { installation } = signIn;
    await holdExportSlot(ctx.exports, installation.id, reply.raw);
    // Audited first: the export's own row is in what it exports.
    await auditHistoryExport(
      ctx.db,
      { installationId: installation.id, syncId: installation.syncId, address: request.ip },
      AUDIT_LOG,
      filters,
    );
    const rows = csvRowsOf(ctx.db, AUDIT_CSV, installation.id, filters, zone, EXPORT_BATCH);
    return sendCsv(reply, csvFileName('journal-audit', ctx.now(), zone), AUDIT_CSV_HEADERS, rows);
  });
}
