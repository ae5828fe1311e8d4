import { queryOptions, useQuery } from '@tanstack/react-query';
import { compareFloors, type Floor, type InventoryMeta } from '../domain/floor';
import type { WorkerOnMap } from '../domain/inventory';
import { FloorSchema, InventoryMetaSchema } from '../domain/schemas/floors';
import { WorkerOnMapSchema } from '../domain/schemas/inventory';
import type { ApiClient } from './client';
import { queryKeys } from './queryKeys';
import type { InventoryScope } from './queryParams';

/** Fetchers of the live inventory: helmets on a floor, asset counts, a site's floors with their counts. */

export type { InventoryScope };

/** GET /floors/{id}/workers: the helmets on the floor, for the poll under the live socket. */
export async function fetchFloorWorkers(
  api: ApiClient,
  floorId: number,
  signal?: AbortSignal,
): Promise<WorkerOnMap[]> {
  const { data } = await api.list(`/floors/${floorId}/workers`, WorkerOnMapSchema, { signal });
  return data;
}

/** GET /{sites|buildings|floors}/{id}/inventory-meta (spec §3 "Asset status counts"). */
export async function fetchInventoryMeta(
  api: ApiClient,
  scope: InventoryScope,
  id: number,
  signal?: AbortSignal,
): Promise<InventoryMeta> {
  return api.get(`/${scope}/${id}/inventory-meta`, InventoryMetaSchema, { signal });
}

/** GET /sites/{id}/floors?sort=altitude: every floor of the site, highest first (spec §2). */
export async function fetchSiteFloors(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<Floor[]> {
  const { data } = await api.list(`/sites/${siteId}/floors`, FloorSchema, {
    signal,
    query: { sort: 'altitude' },
  });
  return [...data].sort(compareFloors);
}

// Query options: each owns its key.

export function inventoryMetaQuery(api: ApiClient, scope: InventoryScope, id: number) {
  return queryOptions({
    queryKey: queryKeys.inventory.meta(scope, id),
    queryFn: ({ signal }) => fetchInventoryMeta(api, scope, id, signal),
  });
}

export function siteFloorsQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.floors.bySite(siteId),
    queryFn: ({ signal }) => fetchSiteFloors(api, siteId, signal),
  });
}

export function useInventoryMeta(api: ApiClient, scope: InventoryScope, id: number) {
  return useQuery(inventoryMetaQuery(api, scope, id));
}

export function useSiteFloors(api: ApiClient, siteId: number) {
  return useQuery(siteFloorsQuery(api, siteId));
}
