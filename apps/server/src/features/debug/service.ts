import type { TRepairResponse, TXmlStatusResponse } from '@synchro/contracts';
import type { AppContext } from '../../context.ts';
import { recordAudit } from '../../domain/audit.ts';
import {
  conflict,
  getConfiguration,
  lockConfiguration,
  writeNewVersion,
} from '../../domain/configurations.ts';
import type { Installation } from '../../domain/installations.ts';
import { runBySize } from '../../offload/pool.ts';
import { diagnoseTask, repairTask } from './tasks.ts';

/** GET /api/debug/xml-status: the diagnostic of the stored text (in a worker thread when big). */
export async function xmlStatus(ctx: AppContext, installationId: string): Promise<TXmlStatusResponse> {
  const { text } = await getConfiguration(ctx.db, installationId);
  return runBySize(ctx.offload, diagnoseTask, text, text.length);
}

/** Attempts of a repair whose text changed while it was being repaired (a save meanwhile). */
const REPAIR_ATTEMPTS = 3;

/**
 * POST /api/debug/repair-xml. The stored text is repaired off the request thread (a worker when
 * big), then, in one short transaction, written as the next version (author 'repair') if it is
 * still the stored one (the replaced text stays in the history: the backup); when a save came in
 * meanwhile, the repair starts again on the new text. Nothing to repair: no new version. A repair
 * that would have to guess: 422, nothing changed.
 */
export async function repairStored(
  ctx: AppContext,
  installation: Installation,
  address: string,
): Promise<TRepairResponse> {
  for (let attempt = 1; ; attempt += 1) {
    const stored = await getConfiguration(ctx.db, installation.id);
    const repaired = await runBySize(ctx.offload, repairTask, stored.text, stored.text.length);
    if (repaired.changes.length === 0) {
      return {
        changes: [],
        backupVersion: stored.version,
        version: stored.version,
        diagnostic: repaired.diagnostic,
      };
    }
    const written = await ctx.db.transaction(async (tx) => {
      const current = await lockConfiguration(tx, installation.id);
      if (current.version !== stored.version) return null;
      const { version } = await writeNewVersion(
        tx,
        installation.id,
        current,
        repaired.text,
        'repair',
        null,
        ctx.versionRetention,
        { address, offload: ctx.offload },
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
      return version;
    });
    if (written !== null) {
      return {
        changes: repaired.changes,
        backupVersion: stored.version,
        version: written,
        diagnostic: repaired.diagnostic,
      };
    }
    if (attempt >= REPAIR_ATTEMPTS) throw conflict();
  }
}
