import type { TLoginRequest, TUser } from '@synchro/contracts';
import { ApiError, api } from '../../lib/api-client.ts';
import { API_PATHS } from '@synchro/contracts/constants';

/**
 * The contract of a user, loaded with the first user that comes back: a visitor's first load of
 * /auth (a 401) never downloads zod (docs/web.md, Budget).
 */
const userSchema = async () => (await import('@synchro/contracts')).ZUser;

/**
 * Called when an answer carries a user, before its contract loads: the app starts downloading
 * what a signed-in screen needs alongside (app/preload.ts) instead of after.
 */
export type OnSession = () => void;

const sessionSchema = (onSession?: OnSession) => async () => {
  onSession?.();
  return userSchema();
};

/** GET /api/user: the session source. 401 means signed out (null). */
export async function fetchUser(signal?: AbortSignal, onSession?: OnSession): Promise<TUser | null> {
  try {
    return await api.get(API_PATHS.user, { schema: sessionSchema(onSession), ...(signal ? { signal } : {}) });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const loginRequest = (credentials: TLoginRequest, onSession?: OnSession) =>
  api.post(API_PATHS.login, { body: credentials, schema: sessionSchema(onSession) });
/** The answer is not read (docs/spec-notes.md, Web: Calls and errors). */
export const logoutRequest = () => api.post(API_PATHS.logout);
