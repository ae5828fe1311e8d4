import { queryOptions } from '@tanstack/react-query';
import {
  type FloorNodeInformation,
  FloorNodeInformationSchema,
  type NodePlaybackChunk,
  NodePlaybackChunkSchema,
} from '../domain/schemas/nodes';
import type { ApiClient } from './client';
import { queryKeys } from './queryKeys';

/**
 * The maintenance map's fetchers: a floor's nodes at a time (GET /api/floors/{id}/node-information)
 * and its node reports over a range in chunks (GET
 * /api/installation/{floorId}/assets/list/playback/{from}/{to}?cursor), for the replay.
 */

export type { FloorNodeInformation, NodePlaybackChunk };

/** How often the live map asks for the floor's nodes again: gateways report every 10–60 s. */
export const NODE_MAP_POLL_MS = 10_000;

export function fetchFloorNodeInformation(
  api: ApiClient,
  floorId: number,
  at: Date | null,
  signal?: AbortSignal,
): Promise<FloorNodeInformation> {
  return api.get(`/floors/${floorId}/node-information`, FloorNodeInformationSchema, {
    query: { timestamp: at?.toISOString() },
    signal,
  });
}

/** The floor's nodes now, polled every NODE_MAP_POLL_MS while the live map shows them. */
export function floorNodesNowQuery(api: ApiClient, floorId: number) {
  return queryOptions({
    queryKey: queryKeys.nodeMap.floor(floorId),
    queryFn: ({ signal }) => fetchFloorNodeInformation(api, floorId, null, signal),
    refetchInterval: NODE_MAP_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

export function fetchNodePlaybackChunk(
  api: ApiClient,
  floorId: number,
  window: { fromMs: number; toMs: number },
  cursor: string | null,
  signal?: AbortSignal,
): Promise<NodePlaybackChunk> {
  const from = encodeURIComponent(new Date(window.fromMs).toISOString());
  const to = encodeURIComponent(new Date(window.toMs).toISOString());
  return api.get(`/installation/${floorId}/assets/list/playback/${from}/${to}`, NodePlaybackChunkSchema, {
    query: { cursor: cursor ?? undefined },
    signal,
  });
}

/** Every chunk of [fromMs, toMs), following the cursors in order: one window of the replay. */
export async function fetchNodePlaybackWindow(
  api: ApiClient,
  floorId: number,
  window: { fromMs: number; toMs: number },
  signal?: AbortSignal,
): Promise<NodePlaybackChunk[]> {
  const chunks: NodePlaybackChunk[] = [];
  let cursor: string | null = null;
  do {
    const chunk: NodePlaybackChunk = await fetchNodePlaybackChunk(api, floorId, window, cursor, signal);
    chunks.push(chunk);
    cursor = chunk.nextCursor;
  } while (cursor !== null && !signal?.aborted);
  return chunks;
}
