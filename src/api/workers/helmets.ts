import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AssetOption } from '../../domain/inventory';
import { AssetOptionSchema } from '../../domain/schemas/inventory';
import { UnreadDataSchema } from '../../domain/schemas/replies';
import type { ApiClient } from '../client';
import { queryKeys } from '../queryKeys';

/** A worker's helmet: assign, unassign, and the helmets nobody wears. */

async function messageOf(reply: Promise<{ message: string }>, fallback: string): Promise<string> {
  return (await reply).message || fallback;
}

export function assignHelmet(
  api: ApiClient,
  siteId: number,
  workerId: number,
  helmetId: number,
): Promise<string> {
  return messageOf(
    api.send('POST', `/sites/${siteId}/workers/${workerId}/inventories/assign/${helmetId}`, UnreadDataSchema),
    'The helmet is assigned successfully',
  );
}

export function unassignHelmet(api: ApiClient, siteId: number, workerId: number): Promise<string> {
  return messageOf(
    api.send('POST', `/sites/${siteId}/workers/${workerId}/inventories/unassign`, UnreadDataSchema),
    'The helmet is unassigned successfully',
  );
}

/**
 * The helmets nobody wears, as a select list sorted by wnt_inventory_id (spec §7's
 * GET /networks/{id}/inventory/assets?assigned=0, over every network of the site at once: the
 * site's device list is the nodes area's, which a crew manager assigning helmets may not read).
 */
export async function fetchUnassignedHelmets(
  api: ApiClient,
  siteId: number,
  signal?: AbortSignal,
): Promise<AssetOption[]> {
  const { data } = await api.list(`/sites/${siteId}/inventories/assets`, AssetOptionSchema, {
    signal,
    query: { assigned: 0 },
  });
  return data;
}

export function unassignedHelmetsQuery(api: ApiClient, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.workers.unassignedHelmets(siteId),
    queryFn: ({ signal }) => fetchUnassignedHelmets(api, siteId, signal),
  });
}

export function useUnassignedHelmets(api: ApiClient, siteId: number) {
  return useQuery(unassignedHelmetsQuery(api, siteId));
}
