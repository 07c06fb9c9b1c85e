import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.ts';
import { ExportSlots, TOO_MANY_EXPORTS_MESSAGE } from './export-slots.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ExportSlots', () => {
  it('runs two exports of an installation at once, the next ones waiting their turn in order', async () => {
    const slots = new ExportSlots(2, 4);
    const first = await slots.acquire('A');
    const second = await slots.acquire('A');
    const started: string[] = [];
    const third = slots.acquire('A').then((free) => (started.push('third'), free));
    const fourth = slots.acquire('A').then((free) => (started.push('fourth'), free));
    await tick();
    expect(started).toEqual([]);
    // Another installation is not held by A's.
    const other = await slots.acquire('B');
    first();
    first();
    await tick();
    expect(started).toEqual(['third']);
    second();
    await tick();
    expect(started).toEqual(['third', 'fourth']);
    (await third)();
    (await fourth)();
    other();
    expect(slots.pending('A')).toBe(0);
    expect(slots.pending('B')).toBe(0);
  });

  it('refuses beyond the waiting bound with 429 in French, nothing held for it', async () => {
    const slots = new ExportSlots(1, 1);
    await slots.acquire('A');
    void slots.acquire('A');
    const refused = await slots.acquire('A').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 429, message: TOO_MANY_EXPORTS_MESSAGE });
    expect(slots.pending('A')).toBe(2);
  });
});
