import {
  MAIL_PATHS,
  ZTestReportRequest,
  type TOutboxList,
  type TOutboxMailDetail,
  type TTestReportAnswer,
} from '@synchro/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { displayTimeZoneOf } from '../../domain/display-zone.ts';
import { currentSignIn, requireSession } from '../../http/session-guard.ts';
import { parseOr400 } from '../../http/validate.ts';
import { outboxList, outboxMail, sendTestReport } from './service.ts';

/** « Test rapport » and « Emails envoyés » of the Complément screen (docs/mail.md). */
export function mailRoutes(app: FastifyInstance, ctx: AppContext): void {
  const preHandler = requireSession(ctx);

  app.post(MAIL_PATHS.testReport, { preHandler }, async (request): Promise<TTestReportAnswer> => {
    const { mailDestinataire } = parseOr400(ZTestReportRequest, request.body);
    const { installation, configVersion } = currentSignIn(request);
    return sendTestReport(ctx, {
      installation,
      configVersion,
      address: mailDestinataire,
      userAddress: request.ip,
    });
  });

  app.get(MAIL_PATHS.outbox, { preHandler }, async (request): Promise<TOutboxList> => {
    const signIn = currentSignIn(request);
    return {
      mails: await outboxList(ctx, signIn.installation.id),
      relayConfigured: ctx.mailer.transport !== null,
      displayTimeZone: await displayTimeZoneOf(ctx, signIn),
    };
  });

  app.get<{ Params: { id: string } }>(
    `${MAIL_PATHS.outbox}/:id`,
    { preHandler },
    async (request): Promise<TOutboxMailDetail> =>
      outboxMail(ctx, currentSignIn(request).installation.id, request.params.id),
  );
}
