import { createContext, useContext } from 'react';
import type { TLoginRequest, TUser } from '@synchro/contracts';

export interface AuthContextValue {
  /** undefined while the first answer is awaited, null when signed out. */
  user: TUser | null | undefined;
  isLoading: boolean;
  /**
   * The first GET /api/user failed otherwise than with a 401 (network, 5xx): the session is not
   * known, the app says so (« Failed to fetch user data ») instead of showing the login screen.
   */
  loadFailed: boolean;
  /** Asks GET /api/user again after `loadFailed`. */
  retryLoad: () => void;
  /** True while that retry runs. */
  isRetrying: boolean;
  login: (credentials: TLoginRequest) => Promise<TUser>;
  isLoggingIn: boolean;
  logout: () => Promise<void>;
  isLoggingOut: boolean;
  /** Refetches the user; logs and gives null on failure (docs/spec-notes.md, Web: Session and sign-in). */
  refreshUser: () => Promise<TUser | null>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used within an AuthProvider');
  return value;
}
