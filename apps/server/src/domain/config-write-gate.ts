/**
 * One configuration write of an installation at a time in this server process (saves, restores,
 * repairs, the connector's PATCH). Each prepares its write outside any transaction and writes it
 * only if no other write came in meanwhile (writeConfiguration), so two of the same installation
 * at once would only make one of them start again (three times, then 409); before that they held
 * a connection each while waiting for the row's lock, and fourteen big saves of one installation
 * took all ten connections of the pool from the others (503 for every installation). Waiting here
 * holds no connection and no worker thread. Other installations' writes are not ordered with these.
 */
export interface ConfigWriteGate {
  run<T>(installationId: string, write: () => Promise<T>): Promise<T>;
  /** Writes running or waiting, for the installation (tests). */
  pending(installationId: string): number;
}

export function createConfigWriteGate(): ConfigWriteGate {
  const queues = new Map<string, { tail: Promise<void>; count: number }>();
  return {
    async run<T>(installationId: string, write: () => Promise<T>): Promise<T> {
      const queue = queues.get(installationId) ?? { tail: Promise.resolve(), count: 0 };
      const before = queue.tail;
      let release = () => {};
      queue.tail = new Promise<void>((resolve) => (release = resolve));
      queue.count += 1;
      queues.set(installationId, queue);
      try {
        await before;
        return await write();
      } finally {
        release();
        queue.count -= 1;
        if (queue.count === 0) queues.delete(installationId);
      }
    },
    pending: (installationId) => queues.get(installationId)?.count ?? 0,
  };
}
