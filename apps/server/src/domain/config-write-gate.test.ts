import { describe, expect, it } from 'vitest';
import { createConfigWriteGate } from './config-write-gate.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** A write that runs until `finish` is called, saying when it started. */
function heldWrite(log: string[], name: string) {
  let finish = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    write: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
      return name;
    },
    finish: () => finish(),
  };
}

describe('one configuration write of an installation at a time', () => {
  it('the writes of one installation run one after the other, in order; another installation’s do not wait', async () => {
    const gate = createConfigWriteGate();
    const log: string[] = [];
    const a1 = heldWrite(log, 'A1');
    const a2 = heldWrite(log, 'A2');
    const b1 = heldWrite(log, 'B1');
    const r1 = gate.run('A', a1.write);
    const r2 = gate.run('A', a2.write);
    const r3 = gate.run('B', b1.write);
    await tick();
    expect(log).toEqual(['start A1', 'start B1']);
    expect(gate.pending('A')).toBe(2);
    a1.finish();
    await tick();
    expect(log).toEqual(['start A1', 'start B1', 'end A1', 'start A2']);
    a2.finish();
    b1.finish();
    expect(await Promise.all([r1, r2, r3])).toEqual(['A1', 'A2', 'B1']);
    expect(gate.pending('A')).toBe(0);
  });

  it('a write that fails lets the next one run, and its error reaches its caller', async () => {
    const gate = createConfigWriteGate();
    const failed = gate.run('A', () => Promise.reject(new Error('refusée')));
    const next = gate.run('A', () => Promise.resolve('suivante'));
    await expect(failed).rejects.toThrow('refusée');
    expect(await next).toBe('suivante');
    expect(gate.pending('A')).toBe(0);
  });
});
