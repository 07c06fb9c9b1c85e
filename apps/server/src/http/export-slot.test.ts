import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ExportSlots } from '../domain/export-slots.ts';
import { AppError } from './errors.ts';
import { holdExportSlot } from './csv.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('holdExportSlot', () => {
  it('gives the place back when its connection closes', async () => {
    const slots = new ExportSlots(1, 1);
    const connection = new EventEmitter();
    await holdExportSlot(slots, 'A', connection);
    expect(slots.pending('A')).toBe(1);
    connection.emit('close');
    expect(slots.pending('A')).toBe(0);
  });

  it('a connection closed while waiting: the place is given back at once and its export does not run', async () => {
    const slots = new ExportSlots(1, 1);
    const first = new EventEmitter();
    await holdExportSlot(slots, 'A', first);
    const gone = new EventEmitter();
    const waiting = holdExportSlot(slots, 'A', gone).catch((err: unknown) => err);
    await tick();
    gone.emit('close');
    first.emit('close');
    const outcome = await waiting;
    expect(outcome).toBeInstanceOf(AppError);
    expect(outcome).toMatchObject({ code: 'client-closed' });
    // Nothing held: another export gets its place at once.
    expect(slots.pending('A')).toBe(0);
    await holdExportSlot(slots, 'A', new EventEmitter());
    expect(slots.pending('A')).toBe(1);
  });
});
