import { useCallback, useMemo, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TLoginRequest, TUser } from '@synchro/contracts';
import { queryKeys } from '../../lib/query-keys.ts';
import { AuthContext, type AuthContextValue } from './auth-context.ts';
import { fetchUser, loginRequest, logoutRequest, type OnSession } from './auth-api.ts';

/**
 * `onSession`: called as soon as the user query or a login answers with a user, before the user
 * is parsed (the app preloads the signed-in screens then).
 */
export function AuthProvider({ children, onSession }: { children: ReactNode; onSession?: OnSession }) {
  const queryClient = useQueryClient();
  const userQuery = useQuery({
    queryKey: queryKeys.user,
    queryFn: ({ signal }) => fetchUser(signal, onSession),
  });

  const loginMutation = useMutation({
    mutationFn: (credentials: TLoginRequest) => loginRequest(credentials, onSession),
    onSuccess: (user) => {
      queryClient.setQueryData<TUser | null>(queryKeys.user, user);
    },
  });

  const logoutMutation = useMutation({
    mutationFn: () => logoutRequest(),
    onSuccess: () => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.user[0] });
      queryClient.setQueryData<TUser | null>(queryKeys.user, null);
    },
  });

  const refreshUser = useCallback(async (): Promise<TUser | null> => {
    try {
      const user = await queryClient.fetchQuery({
        queryKey: queryKeys.user,
        queryFn: ({ signal }) => fetchUser(signal),
      });
      return user;
    } catch (error) {
      console.error('Erreur lors du rafraîchissement des données utilisateur', error);
      return null;
    }
  }, [queryClient]);

  const { refetch: refetchUser } = userQuery;
  const { mutateAsync: loginAsync, isPending: isLoggingIn } = loginMutation;
  const { mutateAsync: logoutAsync, isPending: isLoggingOut } = logoutMutation;

  const value = useMemo<AuthContextValue>(
    () => ({
      user: userQuery.isPending ? undefined : (userQuery.data ?? null),
      isLoading: userQuery.isPending,
      // Only before any answer: a refetch that fails during a session keeps the user (and the
      // screen, with what is typed); the connection banner says the server is lost then.
      loadFailed: userQuery.isError && userQuery.data === undefined,
      retryLoad: () => void refetchUser(),
      isRetrying: userQuery.isFetching,
      login: (credentials) => loginAsync(credentials),
      isLoggingIn,
      logout: async () => {
        await logoutAsync();
      },
      isLoggingOut,
      refreshUser,
    }),
    [
      userQuery.isPending,
      userQuery.data,
      userQuery.isError,
      userQuery.isFetching,
      refetchUser,
      loginAsync,
      isLoggingIn,
      logoutAsync,
      isLoggingOut,
      refreshUser,
    ],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
