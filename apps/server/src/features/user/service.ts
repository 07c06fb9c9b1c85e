import type { TUser } from '@synchro/contracts';
import type { ConfigCache } from '../../domain/config-cache.ts';
import { userConfigView } from '../../domain/connector-config.ts';
import type { Queryable } from '../../db/types.ts';
import type { Installation } from '../installations/service.ts';

/** The signed-in user of spec §7 (GET /api/user, POST /api/login): never a secret in clear. */
export async function buildUser(
  db: Queryable,
  configs: ConfigCache,
  installation: Installation,
): Promise<TUser> {
  const config = await configs.get(db, installation.id);
  const view = userConfigView(config);
  return {
    IDSynchro: installation.syncId,
    Tablettes: installation.software,
    Premium: installation.premium ? 1 : 0,
    Options: installation.options,
    ConfigConnecteur: view.redacted,
    planningCounts: view.planningCounts,
    configVersion: config.version,
  };
}
