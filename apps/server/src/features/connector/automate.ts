import type { TAutomateReport, TAutomateReportAnswer } from '@synchro/contracts';
import type { Db } from '../../db/types.ts';
import { recordAudit } from '../../domain/audit.ts';
import { AUTOMATE_OFFLINE_AFTER_MS } from '../../domain/automate-registrations.ts';
import type { ConfigCache } from '../../domain/config-cache.ts';
import { enqueueAutomateBack } from '../../domain/mail-rules.ts';
import type { Installation } from '../../domain/installations.ts';
import { AppError } from '../../http/errors.ts';
import type { AutomateAddressPolicy } from '../../network/automate-address.ts';

export interface AutomateReportRequest {
  installation: Installation;
  report: TAutomateReport;
  /** The request's source address (the forwarded one behind a trusted proxy). */
  sourceAddress: string;
  now: Date;
  /** The configurations, for the emails' settings. */
  configs: ConfigCache;
}

interface RegistrationRow {
  ip: string;
  port: number;
  version: string;
  machineName: string;
  reportedAt: Date;
}

/**
 * POST /api/connector/v1/automate: the automate's report. Its address is the body's `ip`, else
 * the request's source address. The newest report replaces the stored one (with its time), even
 * when the policy refuses orders to that address: the service is alive, and the Général screen and
 * the answer (`ordersRefused`) then say why no order can reach it (the policy is asked again at
 * each order). Only a text that is no IP address at all is refused (400 `address-refused`).
 * A new address, port or version is audited (a heartbeat that changes nothing is not). A report
 * after more than 24 h of silence writes the « de nouveau en ligne » email (docs/mail.md).
 */
export async function registerAutomate(
  db: Db,
  policy: AutomateAddressPolicy,
  req: AutomateReportRequest,
): Promise<TAutomateReportAnswer> {
  const { installation, report, now } = req;
  const check = policy.check(report.ip ?? req.sourceAddress, installation.syncId);
  if (!check.allowed && check.kind === null) {
    throw new AppError(400, `Enregistrement de l’automate refusé. ${check.message}`, 'address-refused');
  }
  const ordersRefused = check.allowed
    ? undefined
    : `Aucun ordre ne sera envoyé à l’automate. ${check.message}`;
  return db.transaction(async (tx) => {
    const [previous] = await tx.query<RegistrationRow>(
      `SELECT ip, port, version, machine_name AS "machineName", reported_at AS "reportedAt"
       FROM automate_registrations WHERE installation_id = $1 FOR UPDATE`,
      [installation.id],
    );
    const [row] = await tx.query<RegistrationRow>(
      `INSERT INTO automate_registrations AS a
         (installation_id, ip, port, version, machine_name, first_reported_at, reported_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT (installation_id) DO UPDATE SET ip = EXCLUDED.ip, port = EXCLUDED.port,
         version = EXCLUDED.version, machine_name = EXCLUDED.machine_name, reported_at = EXCLUDED.reported_at
       RETURNING ip, port, version, machine_name AS "machineName", reported_at AS "reportedAt"`,
      [installation.id, check.address, report.port, report.version, report.machineName, now],
    );
    if (!row) throw new Error('upsert returned no row');
    const changed =
      !previous ||
      previous.ip !== row.ip ||
      previous.port !== row.port ||
      previous.version !== row.version ||
      previous.machineName !== row.machineName;
    if (changed) {
      await recordAudit(tx, {
        installationId: installation.id,
        syncId: installation.syncId,
        actor: 'connector',
        action: 'automate.register',
        address: req.sourceAddress,
        details: {
          ip: row.ip,
          port: row.port,
          version: row.version,
          machineName: row.machineName,
          previous: previous ? { ip: previous.ip, port: previous.port, version: previous.version } : null,
        },
      });
    }
    if (previous && now.getTime() - previous.reportedAt.getTime() > AUTOMATE_OFFLINE_AFTER_MS)
      await enqueueAutomateBack(tx, installation, req.configs, previous, now);
    return {
      ip: row.ip,
      port: row.port,
      registeredAt: row.reportedAt.toISOString(),
      ...(ordersRefused ? { ordersRefused } : {}),
    };
  });
}
