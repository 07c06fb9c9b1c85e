/**
 * What arrived since a list was shown (docs/live.md, Web): records and transactions the live
 * events counted. The import history and the trace show « N nouveaux enregistrements — Afficher »
 * instead of refetching under the reader; « Afficher » resets the count and refetches.
 */
export type LiveList = 'records' | 'transactions';

type Listener = () => void;
const counts: Record<LiveList, number> = { records: 0, transactions: 0 };
const listeners = new Set<Listener>();
const notify = () => listeners.forEach((l) => l());

export const liveCounts = {
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: (list: LiveList): number => counts[list],
  add(list: LiveList, n: number) {
    if (n <= 0) return;
    counts[list] += n;
    notify();
  },
  reset(list: LiveList) {
    if (counts[list] === 0) return;
    counts[list] = 0;
    notify();
  },
};

/** '1 nouvel enregistrement', '3 nouveaux enregistrements'. */
export const newRecordsLabel = (n: number) =>
  n > 1 ? `${n} nouveaux enregistrements` : `${n} nouvel enregistrement`;
