import { AUTOMATE_OFFLINE_AFTER_HOURS, type TAutomateService } from '@synchro/contracts';
import type { Queryable } from '../db/types.ts';

/**
 * The automate service's newest report (`automate_registrations`, written by the connector API):
 * where sync orders go, and whether the service is alive. Read by the dashboard and the orders.
 */
export interface AutomateRegistration {
  ip: string;
  port: number;
  version: string;
  machineName: string;
  reportedAt: Date;
}

/** Silence after which the service is called offline (the legacy console's 24 h). */
export const AUTOMATE_OFFLINE_AFTER_MS = AUTOMATE_OFFLINE_AFTER_HOURS * 3600 * 1000;

/** The columns of an AutomateRegistration, from the table's alias `r`. */
export const AUTOMATE_REGISTRATION_COLUMNS = `r.ip, r.port, r.version, r.machine_name AS "machineName",
     r.reported_at AS "reportedAt"`;

export async function findAutomateRegistration(
  db: Queryable,
  installationId: string,
): Promise<AutomateRegistration | null> {
  const [row] = await db.query<AutomateRegistration>(
    `SELECT ${AUTOMATE_REGISTRATION_COLUMNS} FROM automate_registrations r WHERE r.installation_id = $1`,
    [installationId],
  );
  return row ?? null;
}

/** `ip:port`, an IPv6 address in brackets (`[2001:db8::5]:8080`), as in a URL. */
export function automateHostPort(registration: Pick<AutomateRegistration, 'ip' | 'port'>): string {
  const host = registration.ip.includes(':') ? `[${registration.ip}]` : registration.ip;
  return `${host}:${registration.port}`;
}

/** Milliseconds since the newest report (0 for a report dated after `now`: clocks drift). */
export function silenceMs(registration: AutomateRegistration, now: Date): number {
  return Math.max(0, now.getTime() - registration.reportedAt.getTime());
}

export function isAutomateOnline(registration: AutomateRegistration, now: Date): boolean {
  return silenceMs(registration, now) <= AUTOMATE_OFFLINE_AFTER_MS;
}

/**
 * The dashboard's view of the service. `ordersRefused`: the address policy's reason when it will
 * not send orders to the registered address (network/automate-address.ts), else null.
 */
export function automateServiceView(
  registration: AutomateRegistration | null,
  now: Date,
  ordersRefused: string | null,
): TAutomateService {
  if (!registration) {
    return {
      registered: false,
      online: false,
      lastReportAt: null,
      lastReportAgeSeconds: null,
      version: null,
      machineName: null,
      address: null,
      ordersRefused: null,
    };
  }
  return {
    registered: true,
    online: isAutomateOnline(registration, now),
    lastReportAt: registration.reportedAt.toISOString(),
    lastReportAgeSeconds: Math.floor(silenceMs(registration, now) / 1000),
    version: registration.version.trim() || null,
    machineName: registration.machineName.trim() || null,
    address: automateHostPort(registration),
    ordersRefused,
  };
}
