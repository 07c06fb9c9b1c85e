import type { Terminal } from '../installation.ts';
import type { Random } from '../random.ts';
import type { IdFactory } from './ids.ts';

/** What every generator draws from: the randomness, the ids, the installation's clock and terminals. */
export interface GeneratorContext {
  rng: Random;
  ids: IdFactory;
  /** The installation's wall-clock zone. */
  zone: string;
  /** The instant the sync ends (records and transactions are dated before it). */
  nowMs: number;
  /** The declared terminals. */
  terminals: readonly Terminal[];
}

/** A terminal device that sent something: its id and the terminal's name. */
export interface Device {
  id: string;
  name: string;
  technicianId: string;
}

/** The device of the real record fixture: records still come from it when no terminal is declared. */
export const FALLBACK_DEVICE: Device = {
  id: '8667183f619bbe98',
  name: 'Terminal non déclaré',
  technicianId: '',
};

export function pickDevice(ctx: GeneratorContext): Device {
  if (ctx.terminals.length === 0) return FALLBACK_DEVICE;
  const t = ctx.rng.pick(ctx.terminals);
  return { id: ctx.rng.pick(t.deviceIds), name: t.name, technicianId: t.technicianId };
}

/** Euros with at most two decimals and a dot, as the records write amounts (`189.9`, `400`). */
export function amount(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** French euros for logs: `1 234,50 €`. */
export function euros(value: number): string {
  return new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(value);
}
