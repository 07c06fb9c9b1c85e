import type { TUser } from '@synchro/contracts';
import { type CachedConfig, type ConfigCache } from '../../domain/config-cache.ts';
import { userConfigView } from '../../domain/connector-config.ts';
import type { Queryable } from '../../db/types.ts';
import type { Installation } from '../installations/service.ts';

/** The signed-in user of spec §7 (GET /api/user, POST /api/login): never a secret in clear. */
export async function buildUser(
  db: Queryable,
  configs: ConfigCache,
  installation: Installation,
): Promise<TUser> {
  return userOf(installation, await configs.get(db, installation.id));
}

export function userOf(installation: Installation, config: CachedConfig): TUser {
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

/** What fastify itself sends with an object answer. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

type UserFields = Pick<Installation, 'syncId' | 'software' | 'premium' | 'options'>;

const USER_BODY = 'user-body';

interface UserBody {
  fields: UserFields;
  bytes: Buffer;
}

/**
 * `userOf` serialised as fastify would (JSON.stringify), in UTF-8 bytes: the ~125 KB answer of
 * GET /api/user is built once per configuration version (the cache entry) and installation
 * fields, instead of being serialised, measured and encoded on every request.
 */
export function userBody(installation: Installation, config: CachedConfig): Buffer {
  const cached = config.derived.get(USER_BODY) as UserBody | undefined;
  if (cached && sameUserFields(cached.fields, installation)) return cached.bytes;
  const body: UserBody = {
    fields: {
      syncId: installation.syncId,
      software: installation.software,
      premium: installation.premium,
      options: installation.options,
    },
    bytes: Buffer.from(JSON.stringify(userOf(installation, config)), 'utf8'),
  };
  config.derived.set(USER_BODY, body);
  return body.bytes;
}

function sameUserFields(a: UserFields, b: UserFields): boolean {
  return (
    a.syncId === b.syncId && a.software === b.software && a.premium === b.premium && a.options === b.options
  );
}
