import { queryOptions, useQuery } from '@tanstack/react-query';
import { Type } from 'typebox';
import { CORNERS, compareFloors, type Floor, type FloorCorners, type Zone } from '../domain/floor';
import { messages } from '../domain/messages';
import { FloorSchema, type ZoneBody, type ZoneEditBody, ZoneSchema } from '../domain/schemas/floors';
import { UnreadDataSchema } from '../domain/schemas/replies';
import { ApiError, cancelledError } from './apiError';
import { type ApiClient, buildUrl } from './client';
import { queryKeys } from './queryKeys';

/**
 * Fetchers of spec §7 "Buildings, floors, zones" (paths relative to the client's `/api` base).
 * Create and edit are multipart (spec §3 Floor): the corners flattened as `coordinates[a][lat]`
 * and so on, values trimmed; image_properties and distance are never sent.
 */

/** What the floor form sends; numbers may still be the strings the user typed. */
export interface FloorFormBody {
  name: string;
  altitude: string | number;
  category: string;
  /** Metres between corners a and b as measured on site; checked against the corners when given. */
  distance?: string;
  /** The analytics grid's cell edge in metres (0.25–10); blank keeps the current one. */
  cellSizeMetres?: string | number;
  coordinates: Record<keyof FloorCorners, { lat: string | number; long: string | number }>;
}

export type { ZoneBody, ZoneEditBody };

/** DELETE's reply: the building's remaining floors. */
const FloorListSchema = Type.Array(FloorSchema);

/** Floors in the order screens show them (spec §2), whatever order they arrive in. */
function inScreenOrder(floors: readonly Floor[]): Floor[] {
  return [...floors].sort(compareFloors);
}

/** The multipart body of create and edit; the image only when one was picked. */
export function floorFormData(body: FloorFormBody, blueprint: Blob | null): FormData {
  const form = new FormData();
  form.append('name', body.name.trim());
  form.append('altitude', String(body.altitude).trim());
  form.append('category', body.category.trim());
  if (body.distance?.trim()) form.append('distance', body.distance.trim());
  const cellSize = String(body.cellSizeMetres ?? '').trim();
  if (cellSize) form.append('cellSizeMetres', cellSize);
  for (const corner of CORNERS) {
    form.append(`coordinates[${corner}][lat]`, String(body.coordinates[corner].lat).trim());
    form.append(`coordinates[${corner}][long]`, String(body.coordinates[corner].long).trim());
  }
  if (blueprint)
    form.append('blueprint', blueprint, blueprint instanceof File ? blueprint.name : 'blueprint');
  return form;
}

// Fetchers: one per endpoint, no UI side effects.

export async function fetchFloors(
  api: ApiClient,
  buildingId: number,
  signal?: AbortSignal,
): Promise<Floor[]> {
  const { data } = await api.list(`/buildings/${buildingId}/floors`, FloorSchema, { signal });
  return inScreenOrder(data);
}

export async function fetchFloor(
  api: ApiClient,
  buildingId: number,
  floorId: number,
  signal?: AbortSignal,
): Promise<Floor> {
  return api.get(`/buildings/${buildingId}/floors/${floorId}`, FloorSchema, { signal });
}

export async function createFloor(
  api: ApiClient,
  buildingId: number,
  body: FloorFormBody,
  blueprint: Blob,
): Promise<Floor> {
  return api.post(`/buildings/${buildingId}/floors`, floorFormData(body, blueprint), FloorSchema);
}

/** POST (edit): the image is optional; without one the current blueprint stays. */
export async function editFloor(
  api: ApiClient,
  buildingId: number,
  floorId: number,
  body: FloorFormBody,
  blueprint: Blob | null,
): Promise<Floor> {
  return api.post(`/buildings/${buildingId}/floors/${floorId}`, floorFormData(body, blueprint), FloorSchema);
}

export async function duplicateFloor(api: ApiClient, buildingId: number, floorId: number): Promise<Floor> {
  return api.post(`/buildings/${buildingId}/floors/${floorId}/duplicate`, undefined, FloorSchema);
}

/** DELETE answers the building's remaining floors (spec §4: the console selects the first). */
export async function deleteFloor(api: ApiClient, buildingId: number, floorId: number): Promise<Floor[]> {
  return inScreenOrder(await api.delete(`/buildings/${buildingId}/floors/${floorId}`, FloorListSchema));
}

export async function fetchZones(api: ApiClient, floorId: number, signal?: AbortSignal): Promise<Zone[]> {
  const { data } = await api.list(`/floors/${floorId}/zones`, ZoneSchema, { signal });
  return data;
}

export async function createZone(
  api: ApiClient,
  floorId: number,
  body: ZoneBody,
  signal?: AbortSignal,
): Promise<Zone> {
  return api.post(`/floors/${floorId}/zones`, body, ZoneSchema, { signal });
}

/** POST /floors/{id}/zones/{id} sends what changed: a rename, only the name. */
export async function renameZone(
  api: ApiClient,
  zone: Pick<Zone, 'id' | 'floor_id'>,
  name: string,
): Promise<Zone> {
  const body: ZoneEditBody = { name: name.trim() };
  return api.post(`/floors/${zone.floor_id}/zones/${zone.id}`, body, ZoneSchema);
}

export async function deleteZone(api: ApiClient, floorId: number, zoneId: number): Promise<void> {
  await api.delete(`/floors/${floorId}/zones/${zoneId}`, UnreadDataSchema);
}

/** How the blueprint is fetched: not JSON, so not through ApiClient, but with its token. */
export interface BlueprintSource {
  /** The API's base, '/api' in the console. */
  baseUrl: string;
  getToken: () => string | null;
  fetch?: typeof fetch;
}

export function blueprintPath(floor: Pick<Floor, 'id' | 'building_id'>): string {
  return `/buildings/${floor.building_id}/floors/${floor.id}/blueprint`;
}

/** GET the blueprint image with the bearer token and no-cache (spec §7). */
export async function fetchBlueprint(
  source: BlueprintSource,
  floor: Pick<Floor, 'id' | 'building_id'>,
  signal?: AbortSignal,
): Promise<Blob> {
  const token = source.getToken();
  const headers: Record<string, string> = { 'Cache-Control': 'no-cache' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const fetchImpl = source.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  let response: Response;
  try {
    response = await fetchImpl(buildUrl(source.baseUrl, blueprintPath(floor)), {
      headers,
      cache: 'no-store',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw cancelledError(error);
    throw new ApiError({ kind: 'network', message: messages.offline, cause: error });
  }
  if (!response.ok) {
    throw new ApiError({ kind: 'http', status: response.status, message: messages.somethingWentWrong });
  }
  return response.blob();
}

// Query options: each owns its key.

export function floorsQuery(api: ApiClient, buildingId: number) {
  return queryOptions({
    queryKey: queryKeys.floors.byBuilding(buildingId),
    queryFn: ({ signal }) => fetchFloors(api, buildingId, signal),
  });
}

export function floorQuery(api: ApiClient, buildingId: number, floorId: number) {
  return queryOptions({
    queryKey: queryKeys.floors.detail(buildingId, floorId),
    queryFn: ({ signal }) => fetchFloor(api, buildingId, floorId, signal),
  });
}

export function zonesQuery(api: ApiClient, floorId: number) {
  return queryOptions({
    queryKey: queryKeys.zones.byFloor(floorId),
    queryFn: ({ signal }) => fetchZones(api, floorId, signal),
  });
}

/** The decoded image; a floor edited with a new image has a new updated_at, so a new key. */
export function blueprintQuery(
  source: BlueprintSource,
  floor: Pick<Floor, 'id' | 'building_id' | 'updated_at'>,
) {
  return queryOptions({
    queryKey: queryKeys.floors.blueprint(floor.id, floor.updated_at),
    queryFn: async ({ signal }) => createImageBitmap(await fetchBlueprint(source, floor, signal)),
    // Bitmaps are not plain data: keep them as they are, and not long after the floor is left.
    structuralSharing: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
    retry: false,
  });
}

export function useFloors(api: ApiClient, buildingId: number) {
  return useQuery(floorsQuery(api, buildingId));
}

export function useFloor(api: ApiClient, buildingId: number, floorId: number) {
  return useQuery(floorQuery(api, buildingId, floorId));
}

export function useZones(api: ApiClient, floorId: number) {
  return useQuery(zonesQuery(api, floorId));
}
