import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { Type } from 'typebox';
import { UnreadDataSchema } from '../domain/schemas/replies';
import { SiteSchema } from '../domain/schemas/sites';
import {
  type EditUserBody,
  type InviteBody,
  type ListUsersQuery,
  ManagedUserSchema,
} from '../domain/schemas/users';
import type { ManagedUser, Site } from '../domain/user';
import type { ApiClient } from './client';
import { queryKeys } from './queryKeys';

/** Fetchers of user management (spec §7 "Auth and user"; paths relative to `/api`). */

export interface UserPage {
  users: ManagedUser[];
  total: number;
}

export async function fetchUsers(
  api: ApiClient,
  params: ListUsersQuery,
  signal?: AbortSignal,
): Promise<UserPage> {
  const reply = await api.list('/users', ManagedUserSchema, { query: { ...params }, signal });
  return { users: reply.data, total: reply.meta?.total ?? reply.data.length };
}

export async function fetchUserSites(api: ApiClient, userId: number, signal?: AbortSignal): Promise<Site[]> {
  const { data } = await api.list(`/users/${userId}/sites`, SiteSchema, { signal });
  return data;
}

/** POST /invite: the reply's data[0] is the new user (spec §7). */
export async function inviteUser(api: ApiClient, body: InviteBody) {
  const { data, message } = await api.send(
    'POST',
    '/invite',
    Type.Array(ManagedUserSchema, { minItems: 1 }),
    {
      body,
    },
  );
  return { user: data[0], message };
}

export function editUser(api: ApiClient, userId: number, body: EditUserBody) {
  return api.send('POST', `/users/${userId}`, ManagedUserSchema, { body });
}

export type StatusAction = 'activate' | 'deactivate' | 'reinvite';

/** POST /users/{id}/activate, /deactivate or /reinvite: the user as it is now. */
export function changeUserStatus(api: ApiClient, userId: number, action: StatusAction) {
  return api.send('POST', `/users/${userId}/${action}`, ManagedUserSchema);
}

/** POST /users/{id}/reset-password: the reply carries a message only. */
export function setUserPassword(api: ApiClient, userId: number, password: string) {
  return api.send('POST', `/users/${userId}/reset-password`, UnreadDataSchema, { body: { password } });
}

export function usersQuery(api: ApiClient, params: ListUsersQuery) {
  return queryOptions({
    queryKey: queryKeys.users.list(params),
    queryFn: ({ signal }) => fetchUsers(api, params, signal),
    // The page stays on screen while the next one (or the next search) loads.
    placeholderData: keepPreviousData,
  });
}

export function userSitesQuery(api: ApiClient, userId: number) {
  return queryOptions({
    queryKey: queryKeys.users.sites(userId),
    queryFn: ({ signal }) => fetchUserSites(api, userId, signal),
  });
}
