import { queryOptions } from '@tanstack/react-query';
import { type TSchema, Type } from 'typebox';
import { Value } from 'typebox/value';
import { messages } from '../domain/messages';
import { BuildingSchema, ClientSchema, type CreateSiteBody, SiteSchema } from '../domain/schemas/sites';
import type { Building, Client, Site } from '../domain/user';
import { ApiError } from './apiError';
import type { ApiClient } from './client';
import { queryKeys } from './queryKeys';

/**
 * Fetchers of spec §7 "Clients and sites" (paths relative to the client's `/api` base). Replies
 * are checked against the shared schemas, so a malformed one fails here, not inside a view.
 */

const ClientListSchema = Type.Array(ClientSchema);
const SiteListSchema = Type.Array(SiteSchema);
const BuildingListSchema = Type.Array(BuildingSchema);

function checked<T>(schema: TSchema, value: unknown): T {
  if (Value.Check(schema, value)) return value as T;
  throw new ApiError({ kind: 'reply', message: messages.somethingWentWrongContactSupport });
}

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
  const { data } = await api.list<unknown>(`/users/${userId}/clients`, { signal });
  return checked<Client[]>(ClientListSchema, data);
}

export async function fetchSites(api: ApiClient, clientId: number, signal?: AbortSignal): Promise<Site[]> {
  const { data } = await api.list<unknown>(`/clients/${clientId}/sites`, { signal });
  return sortSitesByName(checked<Site[]>(SiteListSchema, data));
}

export async function fetchBuildings(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<Building[]> {
  const { data } = await api.list<unknown>(`/sites/${siteId}/buildings`, { signal });
  return checked<Building[]>(BuildingListSchema, data);
}

/** POST /sites: a site under `body.client_id`; the reply is the new site. */
export async function createSite(api: ApiClient, body: CreateSiteBody): Promise<Site> {
  return checked<Site>(SiteSchema, await api.post<unknown>('/sites', body));
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
