import type { TDisplayTimeZone } from '@synchro/contracts';
import type { Queryable } from '../db/types.ts';
import { zoneOffsetMinutes } from '../time/zoned.ts';
import type { ConfigCache } from './config-cache.ts';
import type { Installation } from './installations.ts';
import { connectorTimeZone } from './time-zone.ts';

/**
 * The zone the history screens show times in: the dashboard's (Planification's zone, else the
 * installation's, else Europe/Paris), with its offset now for the notice.
 */
export async function displayTimeZoneOf(
  configs: ConfigCache,
  db: Queryable,
  installation: Installation,
  configVersion: number,
  now: Date,
): Promise<TDisplayTimeZone> {
  const zone = connectorTimeZone(await configs.at(db, installation.id, configVersion), installation);
  return { zone, offsetMinutes: zoneOffsetMinutes(now, zone) };
}
