import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.ts';
import { FairQueue, QUEUE_FULL_MESSAGE } from './fair-queue.ts';

/** A job that records its start and ends when the test says so. */
function jobs() {
  const started: string[] = [];
  const enders = new Map<string, () => void>();
  const job = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      enders.set(name, () => resolve(name));
    });
  const end = async (name: string) => {
    enders.get(name)?.();
    // Lets the queue start the next job.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, job, end };
}

describe('FairQueue', () => {
  it('gives a freed place to the owner served longest ago, not to the oldest job', async () => {
    const q = new FairQueue(1, 100);
    const { started, job, end } = jobs();
    const done = ['a1', 'a2', 'a3', 'a4'].map((n) => q.submit('A', job(n)));
    done.push(q.submit('B', job('b1')), q.submit('B', job('b2')));
    done.push(q.submit('C', job('c1')));
    expect(started).toEqual(['a1']);
    for (const n of ['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']) await end(n);
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
    expect(await Promise.all(done)).toEqual(['a1', 'a2', 'a3', 'a4', 'b1', 'b2', 'c1']);
    expect(q.stats()).toEqual({ running: 0, waiting: 0 });
  });

  it('lets an owner alone use every place', async () => {
    const q = new FairQueue(3, 100);
    const { started, job } = jobs();
    for (const n of ['a1', 'a2', 'a3', 'a4']) void q.submit('A', job(n));
    expect(started).toEqual(['a1', 'a2', 'a3']);
    expect(q.stats('A')).toEqual({ running: 3, waiting: 1 });
  });

  it('refuses an owner’s job beyond its waiting bound with 503, others still taken', async () => {
    const q = new FairQueue(1, 2);
    const { job } = jobs();
    void q.submit('A', job('a1'));
    void q.submit('A', job('a2'));
    void q.submit('A', job('a3'));
    const refused = await q.submit('A', job('a4')).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      status: 503,
      message: QUEUE_FULL_MESSAGE,
      headers: { 'Retry-After': '5' },
    });
    void q.submit('B', job('b1'));
    expect(q.stats()).toEqual({ running: 1, waiting: 3 });
  });

  it('passes on a job’s failure, thrown or rejected, and goes on with the next', async () => {
    const q = new FairQueue(1, 10);
    const thrown = q.submit('A', () => {
      throw new Error('lancée');
    });
    const rejected = q.submit('A', () => Promise.reject(new Error('rejetée')));
    const fine = q.submit('A', async () => 'suite');
    await expect(thrown).rejects.toThrow('lancée');
    await expect(rejected).rejects.toThrow('rejetée');
    expect(await fine).toBe('suite');
    expect(q.stats()).toEqual({ running: 0, waiting: 0 });
  });
});
