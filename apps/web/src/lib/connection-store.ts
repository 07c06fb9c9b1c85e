/**
 * Whether the server answers (docs/web.md, Connexion au serveur). Every call of the API client
 * reports here: a network failure or a 5xx answer marks the connection lost; any other answer
 * marks it back. A tiny external store read with useSyncExternalStore: nothing re-renders while
 * the state does not change.
 */
type Listener = () => void;

let lost = false;
const listeners = new Set<Listener>();

function set(value: boolean) {
  if (lost === value) return;
  lost = value;
  for (const l of listeners) l();
}

export const connectionStore = {
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  isLost: (): boolean => lost,
  /** A fetch that threw (not an abort) or a 5xx answer. */
  reportFailure: () => set(true),
  /** Any answer below 500. */
  reportAnswer: () => set(false),
};

/** True when `status` (or a thrown fetch, status undefined) means the server is unreachable. */
export const isServerFailure = (status: number | undefined) => status === undefined || status >= 500;
