import { queryOptions } from '@tanstack/react-query';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { compareFloors, type Floor, type InventoryMeta } from '../domain/floor';
import type { WorkerOnMap } from '../domain/inventory';
import { messages } from '../domain/messages';
import { FloorSchema, InventoryMetaSchema } from '../domain/schemas/floors';
import { ApiError } from './apiError';
import type { ApiClient } from './client';
import { queryKeys } from './queryKeys';

/** Fetchers of the live inventory: helmets on a floor, asset counts, a site's floors with their counts. */

export type InventoryScope = 'sites' | 'buildings' | 'floors';

const FloorListSchema = Type.Array(FloorSchema);

function replyError(): ApiError {
  return new ApiError({ kind: 'reply', message: messages.somethingWentWrongContactSupport });
}

/** Enough of a WorkerOnMap to key, place and colour it; the rest is shown as it comes. */
function isWorkerOnMap(value: unknown): value is WorkerOnMap {
  if (typeof value !== 'object' || value === null) return false;
  const w = value as Record<string, unknown>;
  return (
    typeof w.inventory_id === 'number' &&
    typeof w.is_online === 'boolean' &&
    typeof w.is_active === 'boolean' &&
    (w.blueprint_id === null || typeof w.blueprint_id === 'number')
  );
}

/** GET /floors/{id}/workers: the helmets on the floor, for the poll under the live socket. */
export async function fetchFloorWorkers(
  api: ApiClient,
  floorId: number,
  signal?: AbortSignal,
): Promise<WorkerOnMap[]> {
  const { data } = await api.list<unknown>(`/floors/${floorId}/workers`, { signal });
  if (!data.every(isWorkerOnMap)) throw replyError();
  return data;
}

/** GET /{sites|buildings|floors}/{id}/inventory-meta (spec §3 "Asset status counts"). */
export async function fetchInventoryMeta(
  api: ApiClient,
  scope: InventoryScope,
  id: number,
  signal?: AbortSignal,
): Promise<InventoryMeta> {
  const data = await api.get<unknown>(`/${scope}/${id}/inventory-meta`, { signal });
  if (!Value.Check(InventoryMetaSchema, data)) throw replyError();
  return data;
}

/** GET /sites/{id}/floors?sort=altitude: every floor of the site, highest first (spec §2). */
export async function fetchSiteFloors(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<Floor[]> {
  const { data } = await api.list<unknown>(`/sites/${siteId}/floors`, {
    signal,
    query: { sort: 'altitude' },
  });
  if (!Value.Check(FloorListSchema, data)) throw replyError();
  return [...(data as Floor[])].sort(compareFloors);
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
