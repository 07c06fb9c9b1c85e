/**
 * What an email is about, as its outbox row keeps it (`mail_outbox.facts`, JSON): captured when
 * the row is written, rendered into French text and HTML at the first send (mail/render.ts).
 * Never a secret: references, counts, times, the automate's machine name.
 */

export type MailKind =
  'sync-report' | 'errors' | 'import' | 'automate-offline' | 'automate-online' | 'order-refused' | 'test';

/** An import record of an email: its id (the history link), reference and kind. */
export interface RecordItem {
  id: string;
  ref: string;
  type: string;
  /** ISO instant of its arrival. */
  at: string;
}

/** A transaction of an email: its id (the trace link), document and terminal. */
export interface TransactionItem {
  id: string;
  ref: string;
  typeDoc: string;
  terminal: string;
  at: string;
}

/** A count and the first items (at most MAX_ITEMS); the email says how many more there are. */
export interface ItemList<T> {
  count: number;
  items: T[];
}

/** Items listed by one email at most; the rest are counted and reached through the lists' links. */
export const MAX_ITEMS = 50;

export const emptyList = <T>(): ItemList<T> => ({ count: 0, items: [] });

/** Appends `items` (counted whole, kept up to MAX_ITEMS). */
export function addItems<T>(list: ItemList<T> | undefined, items: readonly T[]): ItemList<T> {
  const base = list ?? emptyList<T>();
  return {
    count: base.count + items.length,
    items: [...base.items, ...items.slice(0, Math.max(0, MAX_ITEMS - base.items.length))],
  };
}

/** What arrived between two sync reports (mail_state.sync_activity). */
export interface SyncActivity {
  imported?: ItemList<RecordItem>;
  rejected?: ItemList<RecordItem>;
  failedTransactions?: ItemList<TransactionItem>;
}

/** DerSynchro as the report shows it (decoded texts). */
export interface LastSyncFacts {
  /** ISO instant of DateHeure, or null when it cannot be read. */
  at: string | null;
  type: string | null;
  duration: string | null;
  records: number | null;
  speed: number | null;
  volume: string | null;
  durationAlert: boolean;
  volumeAlert: boolean;
}

interface Common {
  syncId: string;
  /** The installation's display zone when the row was written. */
  zone: string;
}

export interface SyncReportFacts extends Common {
  lastSync: LastSyncFacts;
  activity: SyncActivity;
}

export interface TestFacts extends Common {
  /** null: no sync reported yet, a sample is sent. */
  lastSync: LastSyncFacts | null;
}

export interface ErrorDigestFacts extends Common {
  /** When the digest started gathering (its first error). */
  since: string;
  records?: ItemList<RecordItem>;
  transactions?: ItemList<TransactionItem>;
}

export interface AutomateFacts extends Common {
  lastReportAt: string;
  machineName: string;
  version: string;
  /** automate-online: when it reported again. */
  backAt?: string;
}

/**
 * The outcomes of a sync order asked from the console that did not go through (docs/mail.md):
 * each writes a Notification Info saying why (mail/render.ts). `error`: an unexpected failure of
 * the console during the order.
 */
export const ORDER_FAILURES = [
  'refused',
  'unreachable',
  'timeout',
  'redirect',
  'answer-too-large',
  'malformed-answer',
  'no-automate',
  'address-refused',
  'error',
] as const;
export type OrderFailure = (typeof ORDER_FAILURES)[number];

export interface OrderRefusedFacts extends Common {
  type: 'C' | 'R' | 'I';
  outcome: OrderFailure;
  retInfo: string;
  at: string;
}

export type MailFacts =
  | { kind: 'sync-report'; facts: SyncReportFacts }
  | { kind: 'import'; facts: SyncReportFacts }
  | { kind: 'test'; facts: TestFacts }
  | { kind: 'errors'; facts: ErrorDigestFacts }
  | { kind: 'automate-offline'; facts: AutomateFacts }
  | { kind: 'automate-online'; facts: AutomateFacts }
  | { kind: 'order-refused'; facts: OrderRefusedFacts };

/** A rendered email. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}
