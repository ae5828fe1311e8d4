import { queryOptions } from '@tanstack/react-query';
import { Type } from 'typebox';
import {
  InstallationIdBodySchema,
  type Wall,
  type WallAddBody,
  type WallEditBody,
  WallSchema,
} from '../domain/schemas/installation';
import type { ApiClient } from './client';
import { queryKeys } from './queryKeys';

/**
 * A floor's walls (issue 19, spec §7 "Installation planning"): POST /api/installation/wall/
 * {getAll,add,edit,delete}. The list is fetched whole and searched in the console (a floor holds
 * at most a few hundred walls), so typing in the search box never waits for the server.
 */

export type { Wall, WallAddBody, WallEditBody };

const WallListSchema = Type.Array(WallSchema);

export function fetchWalls(api: ApiClient, floorId: number, signal?: AbortSignal): Promise<Wall[]> {
  return api.post('/installation/wall/getAll', { floor_id: floorId }, WallListSchema, { signal });
}

export function addWall(api: ApiClient, body: WallAddBody, signal?: AbortSignal): Promise<Wall> {
  return api.post('/installation/wall/add', body, WallSchema, { signal });
}

/** Sends only what changed: a move sends the points, a rename the name. */
export function editWall(api: ApiClient, body: WallEditBody, signal?: AbortSignal): Promise<Wall> {
  return api.post('/installation/wall/edit', body, WallSchema, { signal });
}

export async function deleteWall(api: ApiClient, id: number, signal?: AbortSignal): Promise<void> {
  await api.post('/installation/wall/delete', { id }, InstallationIdBodySchema, { signal });
}

export function wallsQuery(api: ApiClient, floorId: number) {
  return queryOptions({
    queryKey: queryKeys.installation.walls(floorId),
    queryFn: ({ signal }) => fetchWalls(api, floorId, signal),
  });
}

/** The walls whose name holds `search`, case-insensitively (blank: all), in the server's name order. */
export function searchWalls(walls: readonly Wall[], search: string): readonly Wall[] {
  const needle = search.trim().toLocaleLowerCase();
  if (needle === '') return walls;
  return walls.filter((wall) => wall.name.toLocaleLowerCase().includes(needle));
}
