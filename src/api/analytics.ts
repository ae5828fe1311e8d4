import { queryOptions } from '@tanstack/react-query';
import {
  type Heatmap,
  HeatmapSchema,
  type HistoryChunk,
  HistoryChunkSchema,
} from '../domain/schemas/analytics';
import type { ApiClient, Query } from './client';
import { queryKeys } from './queryKeys';
import type { HeatmapParams, HistoryParams } from './queryParams';

export type { HeatmapParams, HistoryParams };

/**
 * Fetchers of the analytics fast paths (issue 16; paths relative to the client's `/api` base).
 * A history chunk is returned as sent; src/domain/historyChunk.ts `decodeHistoryChunk` turns it
 * into typed arrays for playback.
 */

function heatmapQuery(params: HeatmapParams): Query {
  return {
    from: params.from,
    to: params.to,
    crewId: params.crewId,
    subcontractorId: params.subcontractorId,
    workerRoleId: params.workerRoleId,
  };
}

function historyQuery(params: HistoryParams): Query {
  return {
    from: params.from,
    to: params.to,
    workerIds: params.workerIds?.length ? params.workerIds.join(',') : null,
    cursor: params.cursor,
  };
}

export async function fetchHeatmap(
  api: ApiClient,
  floorId: number,
  params: HeatmapParams,
  signal?: AbortSignal,
): Promise<Heatmap> {
  return api.get(`/floors/${floorId}/heatmap`, HeatmapSchema, { query: heatmapQuery(params), signal });
}

/** One chunk of the window; pass its `nextCursor` back as `cursor` for the next. */
export async function fetchHistoryChunk(
  api: ApiClient,
  floorId: number,
  params: HistoryParams,
  signal?: AbortSignal,
): Promise<HistoryChunk> {
  return api.get(`/floors/${floorId}/history`, HistoryChunkSchema, { query: historyQuery(params), signal });
}

export function heatmapQueryOptions(api: ApiClient, floorId: number, params: HeatmapParams) {
  return queryOptions({
    queryKey: queryKeys.analytics.heatmap(floorId, params),
    queryFn: ({ signal }) => fetchHeatmap(api, floorId, params, signal),
    // A past window does not change; switching filters shows the previous map until the next.
    staleTime: 60_000,
  });
}

export function historyChunkQueryOptions(api: ApiClient, floorId: number, params: HistoryParams) {
  return queryOptions({
    queryKey: queryKeys.analytics.history(floorId, params),
    queryFn: ({ signal }) => fetchHistoryChunk(api, floorId, params, signal),
    staleTime: 60_000,
  });
}
