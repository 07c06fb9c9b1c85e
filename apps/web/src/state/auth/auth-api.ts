import type { TLoginRequest, TUser } from '@synchro/contracts';
import { ApiError, api } from '../../lib/api-client.ts';

/** GET /api/user: the session source. 401 means signed out (null). */
export async function fetchUser(signal?: AbortSignal): Promise<TUser | null> {
  try {
    return await api.get<TUser>('/api/user', signal);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const loginRequest = (credentials: TLoginRequest) => api.post<TUser>('/api/login', credentials);
export const logoutRequest = () => api.post<unknown>('/api/logout');
