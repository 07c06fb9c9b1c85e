import type { TPlanningCounts, TUser } from '@synchro/contracts';
import { ConfigXmlError, countPlannings, redactConfig } from '@synchro/config-xml';
import type { Queryable } from '../db/types.ts';
import { derive, type CachedConfig, type ConfigCache } from './config-cache.ts';
import type { Installation } from './installations.ts';

interface UserConfigView {
  redacted: string;
  planningCounts: TPlanningCounts;
}

/**
 * What /api/user says of the configuration. An unreadable document cannot be redacted safely:
 * the user then gets an empty ConfigConnecteur (the diagnostic screen reads it server side).
 */
function userConfigView(entry: CachedConfig): UserConfigView {
  return derive(entry, 'user-view', () => {
    const doc = entry.parsed;
    const empty: UserConfigView = { redacted: '', planningCounts: { C: 0, R: 0, I: 0 } };
    if (doc instanceof ConfigXmlError) return empty;
    try {
      return { redacted: redactConfig(doc), planningCounts: countPlannings(doc) };
    } catch (err) {
      if (err instanceof ConfigXmlError) return empty;
      throw err;
    }
  });
}

/**
 * The signed-in user (GET /api/user, POST /api/login; docs/spec-notes.md, Current user): never a
 * secret in clear.
 */
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
