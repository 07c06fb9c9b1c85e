import type { TDisplayTimeZone } from '@synchro/contracts';
import type { Queryable } from '../db/types.ts';
import { zoneOffsetMinutes } from '../time/zoned.ts';
import type { ConfigCache } from './config-cache.ts';
import type { Installation } from './installations.ts';
import { connectorTimeZone } from './time-zone.ts';

/**
 * The zone the history screens show times in: the dashboard's (Planification's zone, else the
 * installation's, else Europe/Paris), with its offset now for the notice. `from`: the routes'
 * context (configuration cache, database, clock); `signIn`: the request's installation and the
 * configuration version it was signed in with.
 */
export async function displayTimeZoneOf(
  from: { configs: ConfigCache; db: Queryable; now: () => Date },
  signIn: { installation: Installation; configVersion: number },
): Promise<TDisplayTimeZone> {
  const { installation, configVersion } = signIn;
  const zone = connectorTimeZone(
    await from.configs.at(from.db, installation.id, configVersion),
    installation,
  );
  return { zone, offsetMinutes: zoneOffsetMinutes(from.now(), zone) };
}
