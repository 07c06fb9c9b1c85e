import { AppError } from '../http/errors.ts';

interface Job {
  start: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

interface Owner {
  waiting: Job[];
  running: number;
  /** When its last job started (a count of starts): the one served longest ago goes next. */
  servedAt: number;
}

/** The French answer to a task refused because its installation already has too many waiting. */
export const QUEUE_FULL_MESSAGE =
  'Trop de traitements en attente pour cette installation : réessayez dans quelques secondes.';

/**
 * Up to `capacity` jobs at once; the others wait in one queue per owner (an installation), and
 * a freed place goes to the owner served longest ago (an owner not served yet first), not to the
 * oldest job: an owner with a hundred jobs waiting delays another's one by at most one job per
 * place. An owner alone uses every place. Beyond `maxQueuedPerOwner` jobs waiting, an owner's next
 * job is refused with 503 and `Retry-After` (its bodies and texts are not held meanwhile).
 */
export class FairQueue {
  private readonly owners = new Map<string, Owner>();
  private running = 0;
  private starts = 0;

  constructor(
    private readonly capacity: number,
    private readonly maxQueuedPerOwner: number,
  ) {}

  /** Jobs running and waiting, in all or of one owner. */
  stats(owner?: string): { running: number; waiting: number } {
    if (owner !== undefined) {
      const o = this.owners.get(owner);
      return { running: o?.running ?? 0, waiting: o?.waiting.length ?? 0 };
    }
    let waiting = 0;
    for (const o of this.owners.values()) waiting += o.waiting.length;
    return { running: this.running, waiting };
  }

  submit<T>(owner: string, start: () => Promise<T>): Promise<T> {
    const o = this.owners.get(owner) ?? { waiting: [], running: 0, servedAt: -1 };
    if (o.waiting.length >= this.maxQueuedPerOwner) {
      return Promise.reject(new AppError(503, QUEUE_FULL_MESSAGE, 'server-busy', { 'Retry-After': '5' }));
    }
    this.owners.set(owner, o);
    return new Promise<T>((resolve, reject) => {
      o.waiting.push({ start, resolve: resolve as (value: unknown) => void, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.capacity) {
      let next: [string, Owner] | null = null;
      for (const entry of this.owners) {
        if (entry[1].waiting.length > 0 && (next === null || entry[1].servedAt < next[1].servedAt))
          next = entry;
      }
      const job = next?.[1].waiting.shift();
      if (!next || !job) return;
      const [name, owner] = next;
      owner.running += 1;
      owner.servedAt = this.starts++;
      this.running += 1;
      let started: Promise<unknown>;
      try {
        started = job.start();
      } catch (err) {
        started = Promise.reject(err);
      }
      started.then(job.resolve, job.reject).finally(() => {
        owner.running -= 1;
        this.running -= 1;
        // Nothing running or waiting: forgotten (a new job of its comes first).
        if (owner.running === 0 && owner.waiting.length === 0) this.owners.delete(name);
        this.pump();
      });
    }
  }
}
