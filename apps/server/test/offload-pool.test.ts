import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/http/errors.ts';
import { checkRecordsTask, checkResultTask } from '../src/features/connector/checked-batches.ts';
import { createOffloadPool, inlineOffload, OFFLOAD_MIN_BYTES, runOnBody } from '../src/offload/pool.ts';
import { watchedOffload } from './helpers/offload.ts';
import { pingTask } from '../src/offload/task.ts';
import { QUEUE_FULL_MESSAGE } from '../src/offload/fair-queue.ts';
import { OFFLOAD_NICE, threadNice } from '../src/offload/thread-priority.ts';

/** The worker pool with real threads (src/offload-worker.ts run through tsx, as the tests run). */

const pool = createOffloadPool({ threads: 1 });
afterAll(async () => {
  await pool.close();
});

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe('the offload pool', () => {
  it('queues each installation apart: beyond its waiting bound one is refused (503), another is not', async () => {
    const small = createOffloadPool({ threads: 1, queuedPerInstallation: 1 });
    try {
      const a = small.for('A');
      const first = a.run(pingTask, null);
      const second = a.run(pingTask, null);
      const third = await a.run(pingTask, null).catch((err: unknown) => err);
      expect(third).toBeInstanceOf(AppError);
      expect(third).toMatchObject({ status: 503, code: 'server-busy', message: QUEUE_FULL_MESSAGE });
      const other = small.for('B').run(pingTask, null);
      const values = await Promise.all([first, second, other]);
      expect(values.every((v) => typeof v === 'number')).toBe(true);
    } finally {
      await small.close();
    }
  });

  it.runIf(process.platform === 'linux')(
    'its threads yield the cores to the request thread (nice 10), the request thread keeps its own',
    async () => {
      const before = threadNice();
      expect(await pool.run(pingTask, null)).toBe(Math.max(before, OFFLOAD_NICE));
      expect(threadNice()).toBe(before);
    },
  );

  it('runs a task in a worker thread and gives its value back, dates and all', async () => {
    const body = bytes({
      records: [
        {
          IDInterne: 'W1',
          TypeEnreg: 'DocumentDEVIS',
          RefDoc: 'XX_1',
          DateHeure: '2025-11-14T09:12:00',
          NumLigne: 1,
          TypeElement: 'CrÃ©ation',
          Etat: 0,
          Enreg: '<SyncNuxiDev><A>Ã©tÃ©</A></SyncNuxiDev>',
        },
      ],
    });
    const checked = await pool.run(checkRecordsTask, { body, zone: 'Europe/Paris' });
    expect(checked.count).toBe(1);
    expect(checked.rows[0]?.typeElement).toBe('Création');
    expect(checked.rows[0]?.dateHeure).toEqual(new Date('2025-11-14T08:12:00Z'));
  });

  it('carries an AppError back as an AppError: status, French message, code', async () => {
    const error = await pool.run(checkResultTask, { body: bytes({ Etat: 7 }) }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 400, code: 'invalid-request' });
    expect((error as AppError).message).toMatch(/^Requête invalide\u00a0: Etat/);
    const json = await pool
      .run(checkResultTask, { body: bytes('{').slice(0, 1) })
      .catch((err: unknown) => err);
    expect(json).toMatchObject({ status: 400, message: "Le corps de la requête n'est pas un JSON valide." });
  });

  it('runOnBody: a small body on this thread, a big one in the pool, its bytes handed over', async () => {
    let ran = '';
    const spy = watchedOffload(inlineOffload, () => {
      ran = 'pool';
    });
    expect(await runOnBody(spy, checkResultTask, { body: bytes({ Etat: 1 }) })).toEqual({ Etat: 1 });
    expect(ran).toBe('');
    const big = bytes({ Etat: -1, Log: 'l'.repeat(OFFLOAD_MIN_BYTES) });
    expect((await runOnBody(spy, checkResultTask, { body: big })).Etat).toBe(-1);
    expect(ran).toBe('pool');
    expect(await inlineOffload.run(checkResultTask, { body: bytes({ Etat: 1 }) })).toEqual({ Etat: 1 });
  });
});
