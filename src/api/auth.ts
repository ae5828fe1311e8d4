import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Locale } from '../domain/limits';
import { ApiUserSchema, authMessages, LoginReplySchema } from '../domain/schemas/auth';
import { UnreadDataSchema } from '../domain/schemas/replies';
import type { ApiUser, LoginReply } from '../domain/user';
import type { ApiClient } from './client';
import { queryKeys } from './queryKeys';

/**
 * Fetchers of spec §7 "Auth and user". Paths are relative to the client's base URL (`/api` in
 * the console). The client checks each reply against the shared schema named here.
 */

export interface Credentials {
  email: string;
  password: string;
}

/** POST /login. A wrong password rejects with kind 'unauthorized' and the server's message. */
export async function login(
  api: ApiClient,
  credentials: Credentials,
  signal?: AbortSignal,
): Promise<LoginReply> {
  return api.post('/login', { email: credentials.email, password: credentials.password }, LoginReplySchema, {
    signal,
  });
}

/** POST /sites/{id}/login: sign-in straight into a site, used when a group of sites is given. */
export async function siteLogin(
  api: ApiClient,
  siteId: number,
  credentials: Credentials & { groupOfSitesId?: number | null },
  signal?: AbortSignal,
): Promise<LoginReply> {
  const body: Record<string, unknown> = { email: credentials.email, password: credentials.password };
  if (credentials.groupOfSitesId !== undefined) body.group_of_sites_id = credentials.groupOfSitesId;
  return api.post(`/sites/${siteId}/login`, body, LoginReplySchema, { signal });
}

/** GET /logout: revokes the token on the server. */
export async function logout(api: ApiClient, signal?: AbortSignal): Promise<void> {
  await api.get('/logout', UnreadDataSchema, { signal });
}

/** GET /user: the signed-in user's profile. */
export async function currentUser(api: ApiClient, signal?: AbortSignal): Promise<ApiUser> {
  return api.get('/user', ApiUserSchema, { signal });
}

export function currentUserQuery(api: ApiClient) {
  return queryOptions({
    queryKey: queryKeys.user.current(),
    queryFn: ({ signal }) => currentUser(api, signal),
  });
}

export function useCurrentUser(api: ApiClient) {
  return useQuery(currentUserQuery(api));
}

/** POST /users/preferences with the locale; replies the updated user. */
export async function setPreferences(
  api: ApiClient,
  preferences: { locale: Locale },
  signal?: AbortSignal,
): Promise<ApiUser> {
  return api.post('/users/preferences', { locale: preferences.locale }, ApiUserSchema, { signal });
}

/** POST /users/recently-visited: numbers or null, never numeric strings (spec §7). */
export async function recentlyVisited(
  api: ApiClient,
  selection: { clientId: number | null; siteId: number | null },
  signal?: AbortSignal,
): Promise<ApiUser> {
  return api.post(
    '/users/recently-visited',
    { client_id: selection.clientId, site_id: selection.siteId },
    ApiUserSchema,
    { signal },
  );
}

/** POST /forgot-password. The server replies the same whether or not the address is known. */
export async function forgotPassword(
  api: ApiClient,
  email: string,
  signal?: AbortSignal,
): Promise<{ message: string }> {
  const { message } = await api.send('POST', '/forgot-password', UnreadDataSchema, {
    body: { email },
    signal,
  });
  return { message: message || authMessages.resetLinkSent };
}

/** POST /reset-password/{token}. An invalid or used link rejects with kind 'http', status 400. */
export async function resetPassword(
  api: ApiClient,
  token: string,
  password: string,
  signal?: AbortSignal,
): Promise<{ message: string }> {
  const { message } = await api.send(
    'POST',
    `/reset-password/${encodeURIComponent(token)}`,
    UnreadDataSchema,
    {
      body: { password },
      signal,
    },
  );
  return { message: message || authMessages.passwordUpdated };
}

/** POST /register/{token}: accepts an invitation. Replies the registered user and a message. */
export async function register(
  api: ApiClient,
  token: string,
  details: { name: string; password: string },
  signal?: AbortSignal,
): Promise<{ message: string; user: ApiUser | null }> {
  const { data: user, message } = await api.send(
    'POST',
    `/register/${encodeURIComponent(token)}`,
    ApiUserSchema,
    { body: { name: details.name, password: details.password }, signal },
  );
  return { message: message || authMessages.registered, user };
}
