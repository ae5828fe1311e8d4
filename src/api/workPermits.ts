import { queryOptions, useQuery } from '@tanstack/react-query';
import { Type } from 'typebox';
import { UnreadDataSchema } from '../domain/schemas/replies';
import {
  type PermitHolders,
  PermitHoldersSchema,
  type WorkPermitBody,
  type WorkPermitEditBody,
  WorkPermitSchema,
} from '../domain/schemas/workPermits';
import type { WorkPermit } from '../domain/workPermits';
import type { ApiClient } from './client';
import { queryKeys } from './queryKeys';

export type { PermitHolders, WorkPermit, WorkPermitBody, WorkPermitEditBody };

/** Where a floor's permits live: the client/site/floor chain of spec §7. */
export interface PermitFloorPath {
  clientId: number;
  siteId: number;
  floorId: number;
}

const permitsPath = ({ clientId, siteId, floorId }: PermitFloorPath) =>
  `/clients/${clientId}/sites/${siteId}/floors/${floorId}/work-permits`;

export function fetchWorkPermits(
  api: ApiClient,
  path: PermitFloorPath,
  signal?: AbortSignal,
): Promise<WorkPermit[]> {
  return api.get(permitsPath(path), Type.Array(WorkPermitSchema), { signal });
}

export function createWorkPermit(
  api: ApiClient,
  path: PermitFloorPath,
  body: WorkPermitBody,
): Promise<WorkPermit> {
  return api.post(permitsPath(path), body, WorkPermitSchema);
}

/** Sends what changed: a status change sends only `status`. */
export function editWorkPermit(
  api: ApiClient,
  path: PermitFloorPath,
  permitId: number,
  body: WorkPermitEditBody,
): Promise<WorkPermit> {
  return api.post(`${permitsPath(path)}/${permitId}`, body, WorkPermitSchema);
}

export async function deleteWorkPermit(
  api: ApiClient,
  path: PermitFloorPath,
  permitId: number,
): Promise<void> {
  await api.delete(`${permitsPath(path)}/${permitId}`, UnreadDataSchema);
}

export function fetchPermitHolders(
  api: ApiClient,
  clientId: number,
  siteId: number,
  signal?: AbortSignal,
): Promise<PermitHolders> {
  return api.get(`/clients/${clientId}/sites/${siteId}/work-permit-holders`, PermitHoldersSchema, { signal });
}

/** Every permit of the floor; the list filters them on screen (a handful per floor). */
export function workPermitsQuery(api: ApiClient, path: PermitFloorPath) {
  return queryOptions({
    queryKey: queryKeys.workPermits.byFloor(path.floorId),
    queryFn: ({ signal }) => fetchWorkPermits(api, path, signal),
  });
}

export function permitHoldersQuery(api: ApiClient, clientId: number, siteId: number) {
  return queryOptions({
    queryKey: queryKeys.workPermits.holders(siteId),
    queryFn: ({ signal }) => fetchPermitHolders(api, clientId, siteId, signal),
  });
}

export function useWorkPermits(api: ApiClient, path: PermitFloorPath) {
  return useQuery(workPermitsQuery(api, path));
}

export function usePermitHolders(api: ApiClient, clientId: number, siteId: number) {
  return useQuery(permitHoldersQuery(api, clientId, siteId));
}
