import type { Offload } from '../../src/offload/pool.ts';

/**
 * `inner`, with `before` called with each task's name before it runs (a test's record of where
 * work went, or a step of its own then). Its tasks are all its own: `for` gives it back.
 */
export function watchedOffload(inner: Offload, before: (taskName: string) => unknown): Offload {
  const watched: Offload = {
    run: async (task, input, transfer) => {
      await before(task.name);
      return inner.run(task, input, transfer);
    },
    for: () => watched,
    warm: () => inner.warm(),
    close: async () => {},
  };
  return watched;
}
