/**
 * The figures of a finished sync, as the connector writes `DerSynchro`: DateHeure (17 digits, the
 * installation's wall clock), TypeDeSync (connector's text convention), Duree `HH:MM:SS`, NbEnreg,
 * Vitesse, Taille (`3,721 Mo`) and the two alert flags, set from the figures.
 */
import { encodeConnectorText } from '@synchro/config-xml';
import type { TLastSyncPatch } from '../api-types.ts';
import { connectorStamp, formatDuration } from '../connector-time.ts';
import { SYNC_TYPE_LABEL } from '../messages.ts';
import type { SyncType } from '../order-codec.ts';
import type { Random } from '../random.ts';

/** A sync longer than this raises DureeAlerte. */
export const DURATION_ALERT_SECONDS = 10 * 60;
/** A sync larger than this (Mo) raises TailleAlerte. */
export const SIZE_ALERT_MO = 50;

export interface LastSyncFigures {
  durationSeconds: number;
  records: number;
  sizeMo: number;
}

export interface FigureOptions {
  type: SyncType;
  failed?: boolean;
  /** Records this sync sent (import records and transactions): NbEnreg is at least that. */
  minRecords?: number;
  /** Share of slow syncs (DureeAlerte, default 0.1) and of heavy ones (TailleAlerte, default 0.08). */
  slowRate?: number;
  heavyRate?: number;
}

const RECORD_RANGE: Record<SyncType, readonly [number, number]> = {
  C: [900, 4000],
  R: [20, 600],
  I: [5, 80],
};

export function lastSyncFigures(rng: Random, options: FigureOptions): LastSyncFigures {
  const min = options.minRecords ?? 0;
  if (options.failed) {
    // Timeouts on the ERP connection: long, and little went through.
    return {
      durationSeconds: rng.int(DURATION_ALERT_SECONDS + 30, 20 * 60),
      records: min + rng.int(0, 20),
      sizeMo: rng.int(1, 400) / 1000,
    };
  }
  const [lo, hi] = RECORD_RANGE[options.type];
  const records = min + rng.int(lo, hi);
  const perSecond = rng.int(50, 90) / 10;
  let durationSeconds = Math.round(records / perSecond) + rng.int(5, 20);
  let sizeMo = (records * rng.int(1200, 2600)) / (1024 * 1024);
  if (rng.chance(options.slowRate ?? 0.1)) durationSeconds = rng.int(DURATION_ALERT_SECONDS + 60, 25 * 60);
  if (rng.chance(options.heavyRate ?? 0.08)) sizeMo = SIZE_ALERT_MO + rng.int(5_000, 70_000) / 1000;
  return { durationSeconds, records, sizeMo };
}

const SIZE_FORMAT = new Intl.NumberFormat('fr-FR', {
  minimumFractionDigits: 3,
  maximumFractionDigits: 3,
  useGrouping: false,
});

/** `3,721 Mo`. */
export function formatSize(sizeMo: number): string {
  return `${SIZE_FORMAT.format(sizeMo)} Mo`;
}

/**
 * The DerSynchro patch. Vitesse's unit is not documented; the simulator writes the records per
 * 1 000 seconds, which gives the fixture's order of magnitude (1838 records in 4 min 11: 5927).
 */
export function lastSyncPatch(
  type: SyncType,
  figures: LastSyncFigures,
  endMs: number,
  zone: string,
): TLastSyncPatch {
  const seconds = Math.max(1, figures.durationSeconds);
  return {
    DateHeure: connectorStamp(endMs, zone),
    TypeDeSync: encodeConnectorText(SYNC_TYPE_LABEL[type]),
    Duree: formatDuration(seconds),
    DureeAlerte: seconds > DURATION_ALERT_SECONDS ? '1' : '0',
    NbEnreg: String(figures.records),
    Vitesse: String(Math.round((figures.records * 1000) / seconds)),
    Taille: formatSize(figures.sizeMo),
    TailleAlerte: figures.sizeMo > SIZE_ALERT_MO ? '1' : '0',
  };
}
