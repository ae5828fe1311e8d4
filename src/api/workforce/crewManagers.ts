import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  type CrewManagerUser,
  CrewManagerUserSchema,
  type CrewWithManagers,
  CrewWithManagersSchema,
} from '../../domain/schemas/workforce';
import type { ApiClient } from '../client';
import { queryKeys } from '../queryKeys';
import { byName } from './byName';

/** Crews and the crew-manager users who manage them (issue 6). */

export type { CrewManagerUser, CrewWithManagers };

export async function fetchCrewsWithManagers(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<CrewWithManagers[]> {
  const { data } = await api.list(`/sites/${siteId}/crews`, CrewWithManagersSchema, { signal });
  return data.map(({ id, name, manager_ids }) => ({ id, name, manager_ids })).sort(byName);
}

/** POST /sites/{id}/crews/{crewId}/managers (admins only): the crew's managers become exactly these. */
export async function setCrewManagers(
  api: ApiClient,
  siteId: number,
  crewId: number,
  userIds: number[],
): Promise<{ crew: CrewWithManagers; message: string }> {
  const { data: crew, message } = await api.send(
    'POST',
    `/sites/${siteId}/crews/${crewId}/managers`,
    CrewWithManagersSchema,
    { body: { userIds } },
  );
  return {
    crew: { id: crew.id, name: crew.name, manager_ids: crew.manager_ids },
    message: message || 'Crew managers are updated successfully',
  };
}

/**
 * GET /sites/{id}/crew-manager-users (admins): the users who may manage the site's crews, listed
 * by the server with the same rule it applies when managers are set.
 */
export async function fetchCrewManagerUsers(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<CrewManagerUser[]> {
  const { data } = await api.list(`/sites/${siteId}/crew-manager-users`, CrewManagerUserSchema, { signal });
  return data.map(({ id, name, email, user_role }) => ({ id, name, email, user_role }));
}

export function crewsWithManagersQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.workforce.crewsWithManagers(siteId),
    queryFn: ({ signal }) => fetchCrewsWithManagers(api, siteId, signal),
  });
}

export function crewManagerUsersQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.workforce.crewManagerUsers(siteId),
    queryFn: ({ signal }) => fetchCrewManagerUsers(api, siteId, signal),
  });
}

export function useCrewsWithManagers(api: ApiClient, siteId: number) {
  return useQuery(crewsWithManagersQuery(api, siteId));
}

export function useCrewManagerUsers(api: ApiClient, siteId: number) {
  return useQuery(crewManagerUsersQuery(api, siteId));
}
