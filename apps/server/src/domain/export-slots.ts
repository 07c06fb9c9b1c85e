import { AppError } from '../http/errors.ts';

/** The French answer to an export refused because its installation already has too many. */
export const TOO_MANY_EXPORTS_MESSAGE =
  'Trop d’exports en cours pour cette installation : attendez la fin de l’un d’eux, puis réessayez.';

interface Slots {
  running: number;
  waiting: Array<() => void>;
}

/**
 * The CSV exports of an installation running at once (each reads its whole list, batch after
 * batch, for as long as its download lasts): at most `running` per installation, the next ones
 * wait their turn (the download starts later), and beyond `waiting` waiting one is refused with
 * 429 and `Retry-After`. One installation's ten exports of ten million rows do not take the
 * database's time from the others.
 */
export class ExportSlots {
  private readonly slots = new Map<string, Slots>();

  constructor(
    readonly running = 2,
    readonly waiting = 4,
  ) {}

  /** Exports running or waiting, for the installation. */
  pending(installationId: string): number {
    const s = this.slots.get(installationId);
    return s ? s.running + s.waiting.length : 0;
  }

  /** Waits for a place; gives what frees it (once). */
  async acquire(installationId: string): Promise<() => void> {
    const s = this.slots.get(installationId) ?? { running: 0, waiting: [] };
    this.slots.set(installationId, s);
    if (s.running >= this.running) {
      if (s.waiting.length >= this.waiting) {
        throw new AppError(429, TOO_MANY_EXPORTS_MESSAGE, 'too-many-exports', { 'Retry-After': '10' });
      }
      await new Promise<void>((resolve) => s.waiting.push(resolve));
    } else {
      s.running += 1;
    }
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      const next = s.waiting.shift();
      // The place goes straight to the next one waiting (running stays the same).
      if (next) next();
      else {
        s.running -= 1;
        if (s.running === 0) this.slots.delete(installationId);
      }
    };
  }
}
