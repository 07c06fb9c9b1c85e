import { randomUUID } from 'node:crypto';
import type { TSyncAutomateResponse, TSyncOrderOutcome, TSyncType } from '@synchro/contracts';
import {
  AUTOMATE_ANSWER_MAX_BYTES,
  ConfigXmlError,
  encodeAutomateOrder,
  ORDER_REQUESTER,
  readAutomateAnswer,
  readOrderIdentity,
} from '@synchro/config-xml';
import type { AppContext } from '../../context.ts';
import { recordAudit } from '../../domain/audit.ts';
import {
  AUTOMATE_OFFLINE_AFTER_MS,
  automateHostPort,
  findAutomateRegistration,
  silenceMs,
  type AutomateRegistration,
} from '../../domain/automate-registrations.ts';
import { documentOr422 } from '../../domain/config-reading.ts';
import type { Installation } from '../../domain/installations.ts';
import { enqueueOrderRefused } from '../../domain/mail-rules.ts';
import { connectorTimeZone } from '../../domain/time-zone.ts';
import { displayTime } from '../../time/display-clock.ts';
import {
  ACCEPTED_DEFAULT_MESSAGE,
  addressRefusedMessage,
  answerTooLargeMessage,
  BUSY_MESSAGE,
  malformedAnswerMessage,
  NO_AUTOMATE_MESSAGE,
  NOT_PREMIUM_MESSAGE,
  rateLimitedMessage,
  redirectMessage,
  REFUSED_DEFAULT_MESSAGE,
  silentWarning,
  timeoutMessage,
  unreachableMessage,
} from './messages.ts';
import {
  claimOrder,
  closeAbandonedOrders,
  countRecentOrders,
  finishOrder,
  type StoredOutcome,
} from './orders.ts';
import { answerText, sendOrderRequest, type OrderExchange } from './send-order.ts';

/** The limits of the sync orders (docs/server.md, Sync orders). Tests lower some. */
export interface SyncOrderSettings {
  /** The whole exchange with the automate. */
  timeoutMs: number;
  /** Largest answer read. */
  maxAnswerBytes: number;
  /** At most `max` orders per installation in any `windowMs`. */
  rateLimit: { max: number; windowMs: number };
  /**
   * An unfinished order older than this was left by a stopped process and is closed: the
   * timeout plus a margin for the database writes around the exchange.
   */
  abandonedAfterMs: number;
}

export const DEFAULT_SYNC_ORDER_SETTINGS: SyncOrderSettings = {
  timeoutMs: 10_000,
  maxAnswerBytes: AUTOMATE_ANSWER_MAX_BYTES,
  rateLimit: { max: 10, windowMs: 10 * 60_000 },
  abandonedAfterMs: 15_000,
};

export interface SyncRequest {
  installation: Installation;
  configVersion: number;
  type: TSyncType;
  /** The user's address, for the audit. */
  userAddress: string;
}

type Answer = { outcome: TSyncOrderOutcome; retSync: 0 | 1; retInfo: string };

const refusal = (outcome: TSyncOrderOutcome, retInfo: string): Answer => ({ outcome, retSync: 0, retInfo });

/** What an exchange means for the user. */
function interpret(exchange: OrderExchange, hostPort: string, settings: SyncOrderSettings): Answer {
  switch (exchange.kind) {
    case 'unreachable':
      return refusal('unreachable', unreachableMessage(hostPort, exchange.code));
    case 'timeout':
      return refusal('timeout', timeoutMessage(hostPort, settings.timeoutMs));
    case 'redirect':
      return refusal('redirect', redirectMessage(exchange.status));
    case 'too-large':
      return refusal('answer-too-large', answerTooLargeMessage(settings.maxAnswerBytes));
    case 'broken':
      return refusal('malformed-answer', malformedAnswerMessage(exchange.detail));
    case 'answer': {
      if (exchange.status !== 200) {
        return refusal('malformed-answer', malformedAnswerMessage(`réponse HTTP ${exchange.status}`));
      }
      let answer;
      try {
        answer = readAutomateAnswer(answerText(exchange.body, exchange.contentType));
      } catch (err) {
        if (!(err instanceof ConfigXmlError)) throw err;
        return refusal('malformed-answer', malformedAnswerMessage(`XML invalide : ${err.message}`));
      }
      if (answer.retSync === null)
        return refusal('malformed-answer', malformedAnswerMessage('RetSync absent'));
      if (answer.retSync === 1) {
        return { outcome: 'accepted', retSync: 1, retInfo: answer.retInfo ?? ACCEPTED_DEFAULT_MESSAGE };
      }
      return refusal('refused', answer.retInfo ?? REFUSED_DEFAULT_MESSAGE);
    }
  }
}

function lastReportText(registration: AutomateRegistration, zone: string) {
  const { text, offset } = displayTime(registration.reportedAt, zone);
  return { date: text.slice(0, 10), time: text.slice(11, 16), offset };
}

/**
 * POST /api/sync-automate: checks the licence, the registered automate and its address (the
 * policy, again at order time), claims the installation's one in-flight order, applies the rate
 * limit, sends the legacy order and reads the answer. Every outcome is an answer `{retInfo,
 * retSync}` (never a 5xx for a fault of the automate) and an audit row.
 */
export async function requestSync(
  ctx: AppContext,
  req: SyncRequest,
  settings: SyncOrderSettings,
): Promise<TSyncAutomateResponse> {
  const { installation, type } = req;
  const started = Date.now();
  const audit = (answer: Answer, extra: Record<string, unknown> = {}) =>
    recordAudit(ctx.db, {
      installationId: installation.id,
      syncId: installation.syncId,
      actor: 'user',
      action: 'sync-automate.request',
      address: req.userAddress,
      details: { type, outcome: answer.outcome, retSync: answer.retSync, ...extra },
    });
  const reply = async (answer: Answer, extra?: Record<string, unknown>): Promise<TSyncAutomateResponse> => {
    ctx.metrics.syncOrder(answer.outcome, installation.syncId);
    await audit(answer, extra);
    return { retInfo: answer.retInfo, retSync: answer.retSync, outcome: answer.outcome };
  };

  /** An order that could not be sent at all: its email (NotifInf), then the answer. */
  const notSent = async (answer: Answer, extra?: Record<string, unknown>) => {
    await ctx.db.transaction((tx) =>
      enqueueOrderRefused(
        tx,
        installation,
        ctx.configs,
        { type, outcome: answer.outcome, retInfo: answer.retInfo },
        ctx.now(),
      ),
    );
    return reply(answer, extra);
  };

  if (!installation.premium) return reply(refusal('not-premium', NOT_PREMIUM_MESSAGE));
  const registration = await findAutomateRegistration(ctx.db, installation.id);
  if (!registration) return notSent(refusal('no-automate', NO_AUTOMATE_MESSAGE));
  const hostPort = automateHostPort(registration);
  const check = ctx.automateAddresses.check(registration.ip, installation.syncId);
  if (!check.allowed) {
    return notSent(refusal('address-refused', addressRefusedMessage(check.message)), { automate: hostPort });
  }

  const config = await ctx.configs.at(ctx.db, installation.id, req.configVersion);
  const identity = readOrderIdentity(documentOr422(config));
  const now = ctx.now();
  const silence = silenceMs(registration, now);
  const warning =
    silence > AUTOMATE_OFFLINE_AFTER_MS
      ? silentWarning(silence, lastReportText(registration, connectorTimeZone(config, installation)))
      : null;
  const details = {
    automate: hostPort,
    ...(warning ? { silentHours: Math.floor(silence / 3_600_000) } : {}),
  };

  await closeAbandonedOrders(
    ctx.db,
    installation.id,
    new Date(now.getTime() - settings.abandonedAfterMs),
    now,
  );
  const orderId = randomUUID();
  const claimed = await claimOrder(ctx.db, {
    id: orderId,
    installationId: installation.id,
    type,
    address: hostPort,
    now,
  });
  if (!claimed) return reply(refusal('busy', BUSY_MESSAGE), details);

  let stored: StoredOutcome = 'error';
  let retSync: 0 | 1 = 0;
  let retInfo = '';
  try {
    // Counted while this order holds the in-flight place: no other order of the installation can
    // be claimed meanwhile, so the count is exact across processes.
    const { max, windowMs } = settings.rateLimit;
    const recent = await countRecentOrders(ctx.db, installation.id, new Date(now.getTime() - windowMs));
    if (recent.count > max) {
      stored = 'rate-limited';
      const retryMs = (recent.oldest?.getTime() ?? now.getTime()) + windowMs - now.getTime();
      return await reply(refusal('rate-limited', rateLimitedMessage(max, windowMs, retryMs)), {
        ...details,
        orderId,
      });
    }

    const payload = encodeAutomateOrder({
      requestId: orderId,
      timestamp: now.toISOString(),
      type,
      connectorExe: identity.connectorExe,
      connectorIndex: identity.connectorIndex,
      syncId: installation.syncId,
      requester: ORDER_REQUESTER,
    });
    const exchange = await sendOrderRequest(registration, payload, {
      timeoutMs: settings.timeoutMs,
      maxBytes: settings.maxAnswerBytes,
    });
    const answer = interpret(exchange, hostPort, settings);
    stored = answer.outcome;
    retSync = answer.retSync;
    retInfo = answer.retInfo;
    const shown = warning ? { ...answer, retInfo: `${warning}\n\n${answer.retInfo}` } : answer;
    return await reply(shown, { ...details, orderId, durationMs: Date.now() - started });
  } finally {
    // An order that did not go through writes its email (NotifInf) with its outcome.
    await ctx.db.transaction(async (tx) => {
      const at = ctx.now();
      await finishOrder(tx, orderId, stored, retSync, at);
      await enqueueOrderRefused(tx, installation, ctx.configs, { type, outcome: stored, retInfo }, at);
    });
  }
}
