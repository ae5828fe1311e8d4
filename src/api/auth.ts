import { queryOptions } from '@tanstack/react-query';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { Locale } from '../domain/limits';
import { messages } from '../domain/messages';
import { ApiUserSchema, authMessages, LoginReplySchema } from '../domain/schemas/auth';
import type { ApiUser, Envelope, LoginReply } from '../domain/user';
import { ApiError } from './apiError';
import type { ApiClient } from './client';
import { queryKeys } from './queryKeys';

/**
 * Fetchers of spec §7 "Auth and user". Paths are relative to the client's base URL (`/api` in
 * the console). Replies the session depends on are checked against the shared schemas, so a
 * malformed reply fails here rather than deep inside a view.
 */

export interface Credentials {
  email: string;
  password: string;
}

function checked<T>(schema: TSchema, value: unknown, status?: number): T {
  if (Value.Check(schema, value)) return value as T;
  throw new ApiError({ kind: 'reply', status, message: messages.somethingWentWrongContactSupport });
}

/** The reply's message; the caller supplies the text to fall back on. */
function messageOf(reply: Envelope<unknown>, fallback: string): string {
  return typeof reply.message === 'string' && reply.message !== '' ? reply.message : fallback;
}

/** POST /login. A wrong password rejects with kind 'unauthorized' and the server's message. */
export async function login(
  api: ApiClient,
  credentials: Credentials,
  signal?: AbortSignal,
): Promise<LoginReply> {
  const data = await api.post<unknown>(
    '/login',
    { email: credentials.email, password: credentials.password },
    { signal },
  );
  return checked<LoginReply>(LoginReplySchema, data);
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
  const data = await api.post<unknown>(`/sites/${siteId}/login`, body, { signal });
  return checked<LoginReply>(LoginReplySchema, data);
}

/** GET /logout: revokes the token on the server. */
export async function logout(api: ApiClient, signal?: AbortSignal): Promise<void> {
  await api.get<unknown>('/logout', { signal });
}

/** GET /user: the signed-in user's profile. */
export async function currentUser(api: ApiClient, signal?: AbortSignal): Promise<ApiUser> {
  return checked<ApiUser>(ApiUserSchema, await api.get<unknown>('/user', { signal }));
}

export function currentUserQuery(api: ApiClient) {
  return queryOptions({
    queryKey: queryKeys.user.current(),
    queryFn: ({ signal }) => currentUser(api, signal),
  });
}

/** POST /users/preferences with the locale; replies the updated user. */
export async function setPreferences(
  api: ApiClient,
  preferences: { locale: Locale },
  signal?: AbortSignal,
): Promise<ApiUser> {
  const data = await api.post<unknown>('/users/preferences', { locale: preferences.locale }, { signal });
  return checked<ApiUser>(ApiUserSchema, data);
}

/** POST /users/recently-visited: numbers or null, never numeric strings (spec §7). */
export async function recentlyVisited(
  api: ApiClient,
  selection: { clientId: number | null; siteId: number | null },
  signal?: AbortSignal,
): Promise<ApiUser> {
  const data = await api.post<unknown>(
    '/users/recently-visited',
    { client_id: selection.clientId, site_id: selection.siteId },
    { signal },
  );
  return checked<ApiUser>(ApiUserSchema, data);
}

/** POST /forgot-password. The server replies the same whether or not the address is known. */
export async function forgotPassword(
  api: ApiClient,
  email: string,
  signal?: AbortSignal,
): Promise<{ message: string }> {
  const reply = await api.request('POST', '/forgot-password', { body: { email }, signal });
  return { message: messageOf(reply, authMessages.resetLinkSent) };
}

/** POST /reset-password/{token}. An invalid or used link rejects with kind 'http', status 400. */
export async function resetPassword(
  api: ApiClient,
  token: string,
  password: string,
  signal?: AbortSignal,
): Promise<{ message: string }> {
  const reply = await api.request('POST', `/reset-password/${encodeURIComponent(token)}`, {
    body: { password },
    signal,
  });
  return { message: messageOf(reply, authMessages.passwordUpdated) };
}

/** POST /register/{token}: accepts an invitation. Replies the registered user and a message. */
export async function register(
  api: ApiClient,
  token: string,
  details: { name: string; password: string },
  signal?: AbortSignal,
): Promise<{ message: string; user: ApiUser | null }> {
  const reply = await api.request<unknown>('POST', `/register/${encodeURIComponent(token)}`, {
    body: { name: details.name, password: details.password },
    signal,
  });
  const user = Value.Check(ApiUserSchema, reply.data) ? (reply.data as ApiUser) : null;
  return { message: messageOf(reply, authMessages.registered), user };
}
