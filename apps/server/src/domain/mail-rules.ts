import {
  emailAddresses,
  isValidEmailList,
  MAX_RECIPIENTS,
  type TConnectorConfigPatch,
} from '@synchro/contracts';
import {
  decodeConnectorText,
  readComplement,
  readLastSync,
  readPlanifications,
  type ConfigDocument,
} from '@synchro/config-xml';
import type { Queryable } from '../db/types.ts';
import {
  addItems,
  ORDER_FAILURES,
  type ErrorDigestFacts,
  type OrderFailure,
  type LastSyncFacts,
  type RecordItem,
  type SyncActivity,
  type SyncReportFacts,
  type TransactionItem,
} from '../mail/facts.ts';
import { connectorTimestampToIso } from '../time/zoned.ts';
import type { AutomateRegistration } from './automate-registrations.ts';
import { derive, type ConfigCache } from './config-cache.ts';
import { connectorTimeZone, installationZone } from './time-zone.ts';
import type { Installation } from './installations.ts';
import {
  enqueueMail,
  lockGatheringDigest,
  lockMailState,
  updateFacts,
  updateMailState,
} from './mail-outbox.ts';

/**
 * The notification rules (docs/mail.md, What is sent): which email each event writes to the
 * outbox, in the transaction of the event. Every function locks the installation's mail_state
 * row first, so that the grouping and the rates are exact across server processes.
 */

/** The Complément settings that decide the emails, and the zone their times are shown in. */
export interface MailRules {
  recipients: string[];
  /** Envoyer_Rapport: a report after each sync. */
  report: boolean;
  /** NotifErr: records and transactions in error, grouped. */
  errors: boolean;
  /** NotifImp: after an import sync, imported and rejected records. */
  imports: boolean;
  /** NotifInf: the automate offline and back, a sync order that did not go through. */
  info: boolean;
  syncId: string;
  zone: string;
}

/** When the first error digest leaves after its first error: the errors of that minute together. */
export const DIGEST_GATHER_MS = 45_000;
/** Two error digests of one installation are due at least this far apart. */
export const DIGEST_SPACING_MS = 15 * 60_000;

/** The valid addresses of MailDestinataire (separated by ';' or ','), at most MAX_RECIPIENTS. */
export function recipientsOf(text: string): string[] {
  return emailAddresses(text)
    .filter((a) => isValidEmailList(a))
    .slice(0, MAX_RECIPIENTS);
}

/** The rules of a parsed configuration; null when it cannot be read (no email then). */
export function mailRulesOf(
  doc: ConfigDocument | Error,
  installation: Pick<Installation, 'syncId'>,
  zone: string,
): MailRules | null {
  if (doc instanceof Error) return null;
  let complement;
  try {
    complement = readComplement(doc);
  } catch {
    return null;
  }
  const m = complement.mailRapport;
  return {
    recipients: recipientsOf(m.mailDestinataire),
    report: m.envoyerRapport,
    errors: m.notifErr,
    imports: m.notifImp,
    info: m.notifInf,
    syncId: installation.syncId,
    zone,
  };
}

/** What the rules need of an installation. */
export type MailInstallation = Pick<Installation, 'id' | 'syncId' | 'timeZone'>;

/** The display zone of a parsed document (Planifications/FuseauHoraire, else the installation's). */
export function zoneOfDocument(doc: ConfigDocument, installation: Pick<Installation, 'timeZone'>): string {
  let configured = '';
  try {
    configured = readPlanifications(doc).timeZone;
  } catch {
    // An unreadable Planifications: the installation's zone applies.
  }
  return installationZone(configured, installation.timeZone);
}

const wants = (rules: MailRules | null, flag: 'report' | 'errors' | 'imports' | 'info'): rules is MailRules =>
  rules !== null && rules[flag] && rules.recipients.length > 0;

// -------------------------------------------------------------------------------------------
// Records and transactions arriving (the batch routes, the import results)

export interface Arrivals {
  /** Records that arrived with Etat 1 (imported). */
  imported: RecordItem[];
  /** Records that arrived with Etat -1, or whose import result was -1. */
  rejected: RecordItem[];
  failedTransactions: TransactionItem[];
}

export const noArrivals = (): Arrivals => ({ imported: [], rejected: [], failedTransactions: [] });

/**
 * In the transaction of a batch (or of an import result): the errors join the error digest that
 * is gathering, or start one (due a minute after its first error, and 15 minutes after the
 * previous digest at the earliest); everything joins what the next sync report tells.
 */
export async function enqueueArrivals(
  tx: Queryable,
  installation: MailInstallation,
  configs: ConfigCache,
  arrivals: Arrivals,
  now: Date,
): Promise<void> {
  if (arrivals.imported.length + arrivals.rejected.length + arrivals.failedTransactions.length === 0) return;
  const installationId = installation.id;
  const rules = await mailRulesFor(tx, configs, installation);
  const errors = arrivals.rejected.length + arrivals.failedTransactions.length;
  const digest = wants(rules, 'errors') && errors > 0;
  const activity =
    (wants(rules, 'report') || wants(rules, 'imports')) && (errors > 0 || arrivals.imported.length > 0);
  if (!digest && !activity) return;
  const state = await lockMailState(tx, installationId);
  if (activity) {
    const a = state.syncActivity;
    await updateMailState(tx, installationId, {
      syncActivity: {
        imported: addItems(a.imported, arrivals.imported),
        rejected: addItems(a.rejected, arrivals.rejected),
        failedTransactions: addItems(a.failedTransactions, arrivals.failedTransactions),
      },
    });
  }
  if (!digest) return;
  const gathering = state.gatheringId ? await lockGatheringDigest(tx, state.gatheringId) : null;
  if (gathering && state.gatheringId) {
    const facts = gathering.facts as ErrorDigestFacts;
    await updateFacts(tx, state.gatheringId, {
      ...facts,
      records: addItems(facts.records, arrivals.rejected),
      transactions: addItems(facts.transactions, arrivals.failedTransactions),
    });
    return;
  }
  const earliest = state.lastDigestDueAt ? state.lastDigestDueAt.getTime() + DIGEST_SPACING_MS : 0;
  const dueAt = new Date(Math.max(now.getTime() + DIGEST_GATHER_MS, earliest));
  const facts: ErrorDigestFacts = {
    syncId: rules.syncId,
    zone: rules.zone,
    since: now.toISOString(),
    records: addItems(undefined, arrivals.rejected),
    transactions: addItems(undefined, arrivals.failedTransactions),
  };
  const id = await enqueueMail(tx, {
    installationId,
    mail: { kind: 'errors', facts },
    recipients: rules.recipients,
    dueAt,
    now,
    state: 'gathering',
  });
  await updateMailState(tx, installationId, { gatheringId: id, lastDigestDueAt: dueAt });
}

// -------------------------------------------------------------------------------------------
// A sync reported (PATCH /configuration with a new DerSynchro)

/** DerSynchro of a document, decoded, its time as an instant of `zone`. */
export function lastSyncFacts(doc: ConfigDocument, zone: string): LastSyncFacts {
  const s = readLastSync(doc);
  const text = (v: string | null) => (v === null ? null : decodeConnectorText(v));
  return {
    at: connectorTimestampToIso(s.dateHeure, zone),
    type: text(s.type),
    duration: text(s.duration),
    records: s.records,
    speed: s.speed,
    volume: text(s.volume),
    durationAlert: s.durationAlert,
    volumeAlert: s.volumeAlert,
  };
}

const isImportSync = (type: string | null) => type !== null && /^import/i.test(type.trim());

/**
 * In the transaction of the connector's PATCH, once its text is written: when it reports a new
 * sync (DerSynchro/DateHeure changed), the sync report (Envoyer_Rapport) and, after an import sync,
 * the import email (NotifImp), both telling what arrived since the previous report, which starts
 * again.
 */
/** Whether a connector patch reports a sync other than the one the configuration held. */
export function reportsNewSync(patch: TConnectorConfigPatch, beforeLastSync: string | null): boolean {
  const reported = patch.DerSynchro?.DateHeure;
  return reported !== undefined && reported.trim() !== '' && reported !== beforeLastSync;
}

/** The last sync a configuration holds (DerSynchro DateHeure), as enqueueSyncReported compares it. */
export function lastSyncOf(doc: ConfigDocument): string | null {
  return readLastSync(doc).dateHeure ?? null;
}

export async function enqueueSyncReported(
  tx: Queryable,
  installation: MailInstallation,
  beforeLastSync: string | null,
  patch: TConnectorConfigPatch,
  afterDoc: () => ConfigDocument,
  now: Date,
): Promise<void> {
  if (!reportsNewSync(patch, beforeLastSync)) return;
  const state = await lockMailState(tx, installation.id);
  await updateMailState(tx, installation.id, { syncActivity: {} });
  const after = afterDoc();
  const rules = mailRulesOf(after, installation, zoneOfDocument(after, installation));
  if (rules === null) return;
  const lastSync = lastSyncFacts(after, rules.zone);
  const facts: SyncReportFacts = {
    syncId: rules.syncId,
    zone: rules.zone,
    lastSync,
    activity: state.syncActivity satisfies SyncActivity,
  };
  const base = { installationId: installation.id, recipients: rules.recipients, dueAt: now, now };
  if (wants(rules, 'report')) await enqueueMail(tx, { ...base, mail: { kind: 'sync-report', facts } });
  if (wants(rules, 'imports') && isImportSync(lastSync.type))
    await enqueueMail(tx, { ...base, mail: { kind: 'import', facts } });
}

// -------------------------------------------------------------------------------------------
// The automate service

/** The automate's newest report came after more than `offlineAfterMs` of silence. */
export async function enqueueAutomateBack(
  tx: Queryable,
  installation: MailInstallation,
  configs: ConfigCache,
  previous: AutomateRegistration,
  now: Date,
): Promise<void> {
  const installationId = installation.id;
  await lockMailState(tx, installationId);
  const rules = await mailRulesFor(tx, configs, installation);
  await updateMailState(tx, installationId, { offlineNoticedFor: null });
  if (!wants(rules, 'info')) return;
  await enqueueMail(tx, {
    installationId,
    mail: {
      kind: 'automate-online',
      facts: {
        syncId: rules.syncId,
        zone: rules.zone,
        lastReportAt: previous.reportedAt.toISOString(),
        backAt: now.toISOString(),
        machineName: previous.machineName,
        version: previous.version,
      },
    },
    recipients: rules.recipients,
    dueAt: now,
    now,
  });
}

/**
 * The automate has been silent since `registration.reportedAt` (over 24 h): one email per silence
 * (mail_state.offline_noticed_for). Returns false when this silence was already noticed.
 */
export async function enqueueAutomateOffline(
  tx: Queryable,
  installationId: string,
  rules: MailRules | null,
  registration: AutomateRegistration,
  now: Date,
  notify: boolean,
): Promise<boolean> {
  const state = await lockMailState(tx, installationId);
  if (state.offlineNoticedFor?.getTime() === registration.reportedAt.getTime()) return false;
  await updateMailState(tx, installationId, { offlineNoticedFor: registration.reportedAt });
  if (!notify || !wants(rules, 'info')) return true;
  await enqueueMail(tx, {
    installationId,
    mail: {
      kind: 'automate-offline',
      facts: {
        syncId: rules.syncId,
        zone: rules.zone,
        lastReportAt: registration.reportedAt.toISOString(),
        machineName: registration.machineName,
        version: registration.version,
      },
    },
    recipients: rules.recipients,
    dueAt: now,
    now,
  });
  return true;
}

// -------------------------------------------------------------------------------------------
// Sync orders

/**
 * Outcomes of a console order that did not go through: not sent (no automate, its address
 * refused), not reached, refused or unreadable, or interrupted by an unexpected failure. The
 * refusals that are the console's own rules (not premium, an order already in flight, the rate
 * limit) were told at once to the person who asked and write nothing.
 */
export const UNSUCCESSFUL_ORDER_OUTCOMES: ReadonlySet<string> = new Set<OrderFailure>(ORDER_FAILURES);

const isOrderFailure = (outcome: string): outcome is OrderFailure => UNSUCCESSFUL_ORDER_OUTCOMES.has(outcome);

/**
 * Refusals found before the orders' rate limit (no automate, its address refused): a person who
 * clicks again gets the same answer each time, and the recipients one email per quarter hour, not
 * one per click.
 */
const REPEATED_REFUSALS: ReadonlySet<string> = new Set(['no-automate', 'address-refused']);
const REPEATED_REFUSAL_MS = 15 * 60_000;

/** A sync order that did not go through (NotifInf), in the transaction that closes it. */
export async function enqueueOrderRefused(
  tx: Queryable,
  installation: MailInstallation,
  configs: ConfigCache,
  order: { type: 'C' | 'R' | 'I'; outcome: string; retInfo: string },
  now: Date,
): Promise<void> {
  const { outcome } = order;
  if (!isOrderFailure(outcome)) return;
  const installationId = installation.id;
  const rules = await mailRulesFor(tx, configs, installation);
  if (!wants(rules, 'info')) return;
  await lockMailState(tx, installationId);
  if (REPEATED_REFUSALS.has(outcome)) {
    const [recent] = await tx.query(
      `SELECT 1 FROM mail_outbox WHERE installation_id = $1 AND kind = 'order-refused'
         AND facts->>'outcome' = $2 AND created_at > $3 LIMIT 1`,
      [installationId, outcome, new Date(now.getTime() - REPEATED_REFUSAL_MS)],
    );
    if (recent) return;
  }
  await enqueueMail(tx, {
    installationId,
    mail: {
      kind: 'order-refused',
      facts: { syncId: rules.syncId, zone: rules.zone, ...order, outcome, at: now.toISOString() },
    },
    recipients: rules.recipients,
    dueAt: now,
    now,
  });
}

/**
 * The rules of an installation now: its configuration read through the cache (in the caller's
 * transaction), its Complément settings read once per version.
 */
export async function mailRulesFor(
  db: Queryable,
  configs: ConfigCache,
  installation: MailInstallation,
): Promise<MailRules | null> {
  const config = await configs.get(db, installation.id);
  const zone = connectorTimeZone(config, installation);
  return derive(config, `mail-rules:${installation.syncId}:${zone}`, () =>
    mailRulesOf(config.parsed, installation, zone),
  );
}
