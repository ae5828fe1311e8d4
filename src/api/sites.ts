import { queryOptions, useQuery } from '@tanstack/react-query';
import { BuildingSchema, ClientSchema, type CreateSiteBody, SiteSchema } from '../domain/schemas/sites';
import type { Building, Client, Site } from '../domain/user';
import type { ApiClient } from './client';
import { queryKeys } from './queryKeys';

/** Fetchers of spec §7 "Clients and sites" (paths relative to the client's `/api` base). */

/** Site lists are kept sorted by name (spec §3), whatever order they arrive or grow in. */
export function sortSitesByName(sites: readonly Site[]): Site[] {
  return [...sites].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** The list with `site` added or replaced, still sorted by name. */
export function withSite(sites: readonly Site[] | undefined, site: Site): Site[] {
  return sortSitesByName([...(sites ?? []).filter((known) => known.id !== site.id), site]);
}

// Fetchers: one per endpoint, no UI side effects.

/** The caller's own clients: every role may read its own. */
export async function fetchClients(api: ApiClient, userId: number, signal?: AbortSignal): Promise<Client[]> {
  const { data } = await api.list(`/users/${userId}/clients`, ClientSchema, { signal });
  return data;
}

export async function fetchSites(api: ApiClient, clientId: number, signal?: AbortSignal): Promise<Site[]> {
  const { data } = await api.list(`/clients/${clientId}/sites`, SiteSchema, { signal });
  return sortSitesByName(data);
}

export async function fetchBuildings(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<Building[]> {
  const { data } = await api.list(`/sites/${siteId}/buildings`, BuildingSchema, { signal });
  return data;
}

/** POST /sites: a site under `body.client_id`; the reply is the new site. */
export async function createSite(api: ApiClient, body: CreateSiteBody): Promise<Site> {
  return api.post('/sites', body, SiteSchema);
}

// Query options: each owns its key.

export function clientsQuery(api: ApiClient, userId: number) {
  return queryOptions({
    queryKey: queryKeys.clients(userId),
    queryFn: ({ signal }) => fetchClients(api, userId, signal),
  });
}

export function sitesQuery(api: ApiClient, clientId: number) {
  return queryOptions({
    queryKey: queryKeys.sites(clientId),
    queryFn: ({ signal }) => fetchSites(api, clientId, signal),
  });
}

export function buildingsQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.buildings(siteId),
    queryFn: ({ signal }) => fetchBuildings(api, siteId, signal),
  });
}

export function useClients(api: ApiClient, userId: number) {
  return useQuery(clientsQuery(api, userId));
}

export function useSites(api: ApiClient, clientId: number) {
  return useQuery(sitesQuery(api, clientId));
}

export function useBuildings(api: ApiClient, siteId: number) {
  return useQuery(buildingsQuery(api, siteId));
}
