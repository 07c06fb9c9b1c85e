/**
 * Settings local to one transaction (`SET LOCAL`: they end with it), given to `Db.transaction`.
 * Names and values are the code's own constants, never input: both are checked against a narrow
 * pattern, so that the text built here cannot say anything else. Names are the console's own
 * (`synchro.…`) or one of PostgreSQL's few that bound how long a transaction holds its locks.
 */
export type TransactionSettings = Readonly<Record<string, string>>;

const NAME = /^([a-z_]+\.[a-z_]+|statement_timeout|synchronous_commit)$/;
const VALUE = /^[a-z0-9_]+$/;

function checked(settings: TransactionSettings): [string, string][] {
  const entries = Object.entries(settings);
  for (const [name, value] of entries) {
    if (!NAME.test(name) || !VALUE.test(value)) throw new Error(`réglage de transaction invalide : ${name}`);
  }
  return entries;
}

/** `BEGIN` followed by the settings' `SET LOCAL`, as one simple query (one round trip). */
export function beginWith(settings: TransactionSettings | undefined): string {
  const sets = settings ? checked(settings).map(([name, value]) => `SET LOCAL ${name} = '${value}'`) : [];
  return ['BEGIN', ...sets].join('; ');
}

/** The settings' `SET LOCAL`s alone (for a transaction already begun), or null when none. */
export function setLocal(settings: TransactionSettings | undefined): string | null {
  const sets = settings ? checked(settings).map(([name, value]) => `SET LOCAL ${name} = '${value}'`) : [];
  return sets.length === 0 ? null : sets.join('; ');
}

/**
 * PostgreSQL: a commit that does not wait for its WAL to reach the disk, so that the transaction's
 * locks are released at once rather than after an fsync. For the retentions' deletions only: a
 * crash can undo their last batches, which their next pass deletes again (docs/decisions.md,
 * « History retention: a batch's deletion bounded at 50 ms »).
 */
export const ASYNC_COMMIT: TransactionSettings = { synchronous_commit: 'off' };
