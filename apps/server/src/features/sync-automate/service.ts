import type { TSyncAutomateResponse, TSyncType } from '@synchro/contracts';
import { recordAudit } from '../../domain/audit.ts';
import type { Queryable } from '../../db/types.ts';
import type { Installation } from '../../domain/installations.ts';

export const NOT_PREMIUM_MESSAGE = 'Cette fonctionnalité nécessite une licence Premium';
export const NO_AUTOMATE_MESSAGE =
  "Vous ne disposez pas actuellement du service d'automate : aucun service n'est enregistré pour cette installation.";

/**
 * A sync order for the installation's automate. No automate registers yet (the connector API
 * comes later), so every order is answered with the reason it cannot be sent.
 */
export async function requestSync(
  db: Queryable,
  installation: Installation,
  type: TSyncType,
  address: string,
): Promise<TSyncAutomateResponse> {
  const answer: TSyncAutomateResponse = installation.premium
    ? { retSync: 0, retInfo: NO_AUTOMATE_MESSAGE }
    : { retSync: 0, retInfo: NOT_PREMIUM_MESSAGE };
  await recordAudit(db, {
    installationId: installation.id,
    syncId: installation.syncId,
    actor: 'user',
    action: 'sync-automate.request',
    address,
    details: { type, retSync: answer.retSync, reason: installation.premium ? 'no-automate' : 'not-premium' },
  });
  return answer;
}
