/**
 * Unique ids for import records and transactions. Each id is the run's tag (the start instant in
 * hexadecimal, so two runs never share one) followed by a counter: unique within a run and across
 * runs, and deterministic when the tag is given (tests).
 */

const COUNTER_DIGITS = 5;
const COUNTER_LIMIT = 16 ** COUNTER_DIGITS;

/** The tag of a run started at `epochMs`: 11 hexadecimal digits. */
export function runTag(epochMs: number): string {
  return Math.floor(epochMs).toString(16).padStart(11, '0').slice(-11);
}

export type ImportKind = 'DEV' | 'INT' | 'TIE' | 'GED';

export class IdFactory {
  private counter = 0;
  private transactionNumber: number;

  constructor(
    private tag: string,
    firstTransactionNumber = 1,
  ) {
    this.transactionNumber = firstTransactionNumber;
  }

  /** 16 hexadecimal digits, new at each call. */
  next(): string {
    if (this.counter >= COUNTER_LIMIT) {
      this.tag = runTag(Math.max(parseInt(this.tag, 16) + 1, Date.now()));
      this.counter = 0;
    }
    const n = this.counter++;
    return this.tag + n.toString(16).padStart(COUNTER_DIGITS, '0');
  }

  /** An import record's IDInterne, shaped like the connector's (`NUXIDEVA61267c591917f0e1`). */
  importId(kind: ImportKind): string {
    return `NUXI${kind}A${this.next()}`;
  }

  /** A transaction's ID. */
  transactionId(): string {
    return `T-${this.next()}`;
  }

  /** The connector's running transaction number. */
  nextTransactionNumber(): string {
    return String(this.transactionNumber++);
  }
}
