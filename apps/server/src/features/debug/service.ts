import type { VersionRetention } from '../../config/env.ts';
import type { TRepairResponse, TXmlStatusResponse } from '@synchro/contracts';
import { ConfigXmlError, diagnoseConfig, hideSecretNamesIn, repairConfig } from '@synchro/config-xml';
import { recordAudit } from '../../domain/audit.ts';
import type { Db, Queryable } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { getConfiguration, lockConfiguration, writeNewVersion } from '../../domain/configurations.ts';
import type { Installation } from '../../domain/installations.ts';

/** GET /api/debug/xml-status: the diagnostic of the stored text. */
export async function xmlStatus(db: Queryable, installationId: string): Promise<TXmlStatusResponse> {
  const { text } = await getConfiguration(db, installationId);
  return diagnoseConfig(text);
}

/**
 * POST /api/debug/repair-xml. In one transaction: the stored text (kept in the history: the
 * backup) is repaired and written as the next version (author 'repair'). Nothing to repair: no
 * new version. A repair that would have to guess: 422, nothing changed.
 */
export async function repairStored(
  db: Db,
  installation: Installation,
  address: string,
  retention: VersionRetention,
): Promise<TRepairResponse> {
  return db.transaction(async (tx) => {
    const current = await lockConfiguration(tx, installation.id);
    let repaired: { text: string; changes: TRepairResponse['changes'] };
    try {
      repaired = repairConfig(current.text);
    } catch (err) {
      // A `<` inside a password reads as a tag, which the refusal would name.
      if (err instanceof ConfigXmlError)
        throw new AppError(422, hideSecretNamesIn(current.text, err.message), err.code);
      throw err;
    }
    if (repaired.changes.length === 0 || repaired.text === current.text) {
      return {
        changes: [],
        backupVersion: current.version,
        version: current.version,
        diagnostic: diagnoseConfig(current.text),
      };
    }
    const { version } = await writeNewVersion(
      tx,
      installation.id,
      current,
      repaired.text,
      'repair',
      null,
      retention,
      { address },
    );
    await recordAudit(tx, {
      installationId: installation.id,
      syncId: installation.syncId,
      actor: 'user',
      action: 'config.repair',
      address,
      details: {
        backupVersion: current.version,
        version,
        changes: repaired.changes.map((c) => c.code),
      },
    });
    return {
      changes: repaired.changes,
      backupVersion: current.version,
      version,
      diagnostic: diagnoseConfig(repaired.text),
    };
  });
}
