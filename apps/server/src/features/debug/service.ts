import type { TRepairResponse, TXmlStatusResponse } from '@synchro/contracts';
import type { AppContext } from '../../context.ts';
import { recordAudit } from '../../domain/audit.ts';
import {
  commitVersion,
  getConfiguration,
  prepareVersion,
  writeConfiguration,
} from '../../domain/configurations.ts';
import type { Installation } from '../../domain/installations.ts';
import { runBySize } from '../../offload/pool.ts';
import { diagnoseTask, repairTask } from './tasks.ts';

/** GET /api/debug/xml-status: the diagnostic of the stored text (in a worker thread when big). */
export async function xmlStatus(ctx: AppContext, installationId: string): Promise<TXmlStatusResponse> {
  const { text } = await getConfiguration(ctx.db, installationId);
  return runBySize(ctx.offload.for(installationId), diagnoseTask, text, text.length);
}

/**
 * POST /api/debug/repair-xml, through writeConfiguration: the stored text is repaired off the
 * request thread (a worker when big), then, in one short transaction, written as the next version
 * (author 'repair') if it is still the stored one (the replaced text stays in the history: the
 * backup); when a save came in meanwhile, the repair starts again on the new text. Nothing to
 * repair: no new version. A repair that would have to guess: 422, nothing changed.
 */
export async function repairStored(
  ctx: AppContext,
  installation: Installation,
  address: string,
): Promise<TRepairResponse> {
  const offload = ctx.offload.for(installation.id);
  return writeConfiguration(ctx.db, installation.id, {
    prepare: async (stored) => {
      const repaired = await runBySize(offload, repairTask, stored.text, stored.text.length);
      if (repaired.changes.length === 0) return { repaired, version: null };
      const version = await prepareVersion(ctx.db, installation.id, stored, repaired.text, 'repair', {
        offload,
      });
      return { repaired, version };
    },
    commit: async (tx, { repaired, version: prepared }, stored): Promise<TRepairResponse> => {
      const answer = {
        changes: repaired.changes,
        backupVersion: stored.version,
        diagnostic: repaired.diagnostic,
      };
      if (!prepared) return { ...answer, version: stored.version };
      const { version } = await commitVersion(tx, installation.id, prepared, null, ctx.versionRetention, {
        address,
      });
      await recordAudit(tx, {
        installationId: installation.id,
        syncId: installation.syncId,
        actor: 'user',
        action: 'config.repair',
        address,
        details: { backupVersion: stored.version, version, changes: repaired.changes.map((c) => c.code) },
      });
      return { ...answer, version };
    },
  });
}
