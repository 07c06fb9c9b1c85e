import { ConfigXmlError, readPlanifications } from '@synchro/config-xml';
import { isValidTimeZone } from '../time/zoned.ts';
import { derive, type CachedConfig } from './config-cache.ts';
import type { Installation } from './installations.ts';

export const DEFAULT_TIME_ZONE = 'Europe/Paris';

/**
 * The zone of the connector's wall-clock times and of the display: Planifications/
 * FuseauHoraire, else the installation's stored zone, else Europe/Paris.
 */
export function installationZone(configured: string, stored: string): string {
  for (const zone of [configured, stored]) if (zone && isValidTimeZone(zone)) return zone;
  return DEFAULT_TIME_ZONE;
}

/**
 * `Planifications/FuseauHoraire` of a cached configuration version ('' when the stored text or
 * its Planifications cannot be read: the installation's zone applies then), read once per version.
 */
export function configuredTimeZone(config: CachedConfig): string {
  return derive(config, 'configured-time-zone', () => {
    if (config.parsed instanceof ConfigXmlError) return '';
    try {
      return readPlanifications(config.parsed).timeZone;
    } catch (err) {
      if (err instanceof ConfigXmlError) return '';
      throw err;
    }
  });
}

/** The zone an installation's connector times are read in, for a cached configuration version. */
export function connectorTimeZone(
  config: CachedConfig,
  installation: Pick<Installation, 'timeZone'>,
): string {
  return installationZone(configuredTimeZone(config), installation.timeZone);
}
