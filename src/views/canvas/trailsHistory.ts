import { useEffect, useState } from 'react';
import { fetchHistoryChunk } from '../../api/analytics';
import type { ApiClient } from '../../api/client';
import { type DecodedHistory, decodeHistoryChunk } from '../../domain/historyChunk';
import { type Track, tracksOf } from '../../domain/pathLength';

/**
 * A floor's whole history for a range, for the screens that need all of it at once (spaghetti,
 * a worker's day; playback streams windows around its playhead instead, through
 * `fetchWholeWindow`): the range is cut into windows fetched a few at a time,
 * each followed through its cursor. Progress is chunks fetched of the chunks known: every window
 * is one chunk at least, and a cursor adds one more.
 */

/** One window per hour of the range. */
export const HISTORY_WINDOW_MS = 60 * 60_000;
/** Windows fetched side by side. */
const PARALLEL = 3;

export interface HistoryRequest {
  floorId: number;
  fromMs: number;
  toMs: number;
  /** Only these workers; null for every helmet on the floor. */
  workerIds: readonly number[] | null;
  /** How the range is cut (HISTORY_WINDOW_MS unless given): one worker's day fits one window. */
  windowMs?: number;
}

export interface HistoryLoad {
  readonly tracks: readonly Track[];
  readonly fetched: number;
  readonly total: number;
  readonly done: boolean;
  readonly error: Error | null;
}

export const NO_HISTORY: HistoryLoad = { tracks: [], fetched: 0, total: 0, done: false, error: null };

/** GET /api/floors/{id}/history for one window (and cursor). */
export async function fetchHistoryWindow(
  api: ApiClient,
  request: HistoryRequest,
  window: { fromMs: number; toMs: number },
  cursor: string | null,
  signal?: AbortSignal,
): Promise<DecodedHistory> {
  const chunk = await fetchHistoryChunk(
    api,
    request.floorId,
    {
      from: new Date(window.fromMs).toISOString(),
      to: new Date(window.toMs).toISOString(),
      workerIds: request.workerIds,
      cursor,
    },
    signal,
  );
  return decodeHistoryChunk(chunk);
}

/** Every chunk of one window, following its cursors in order (the playback stream's fetch). */
export async function fetchWholeWindow(
  api: ApiClient,
  request: Pick<HistoryRequest, 'floorId' | 'workerIds'>,
  window: { fromMs: number; toMs: number },
  signal?: AbortSignal,
): Promise<DecodedHistory[]> {
  const chunks: DecodedHistory[] = [];
  let cursor: string | null = null;
  do {
    const chunk: DecodedHistory = await fetchHistoryWindow(
      api,
      { ...request, fromMs: window.fromMs, toMs: window.toMs },
      window,
      cursor,
      signal,
    );
    chunks.push(chunk);
    cursor = chunk.nextCursor;
  } while (cursor && !signal?.aborted);
  return chunks;
}

/** The windows of a range (an hour each by default), in order. */
export function historyWindows(
  fromMs: number,
  toMs: number,
  windowMs = HISTORY_WINDOW_MS,
): { fromMs: number; toMs: number }[] {
  const windows: { fromMs: number; toMs: number }[] = [];
  for (let start = fromMs; start < toMs; start += windowMs) {
    windows.push({ fromMs: start, toMs: Math.min(toMs, start + windowMs) });
  }
  return windows;
}

/** Fetches every chunk of the request, reporting the tracks so far after each chunk. */
export async function loadHistory(
  api: ApiClient,
  request: HistoryRequest,
  onProgress: (load: HistoryLoad) => void,
  signal: AbortSignal,
): Promise<HistoryLoad> {
  const windows = historyWindows(request.fromMs, request.toMs, request.windowMs);
  const chunks: DecodedHistory[] = [];
  let total = windows.length;
  let next = 0;
  let tracks: readonly Track[] = [];
  const report = (done: boolean): HistoryLoad => {
    // Regrouping is linear in what arrived: the first chunk draws at once, then every eighth.
    if (done || chunks.length % 8 === 1) tracks = tracksOf(chunks);
    const load = { tracks, fetched: chunks.length, total, done, error: null };
    onProgress(load);
    return load;
  };
  onProgress({ ...NO_HISTORY, total });
  const worker = async () => {
    while (next < windows.length) {
      const window = windows[next++];
      let cursor: string | null = null;
      do {
        const chunk: DecodedHistory = await fetchHistoryWindow(api, request, window, cursor, signal);
        if (signal.aborted) return;
        chunks.push(chunk);
        cursor = chunk.nextCursor;
        if (cursor) total++;
        report(false);
      } while (cursor);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, windows.length) }, worker));
  return report(true);
}

/**
 * The history of `request` (none while it is null), loaded again when it changes; a change or
 * unmount aborts the load in flight.
 */
export function useFloorHistory(api: ApiClient, request: HistoryRequest | null): HistoryLoad {
  const [load, setLoad] = useState<HistoryLoad>(NO_HISTORY);
  const key = request
    ? `${request.floorId}|${request.fromMs}|${request.toMs}|${request.workerIds?.join(',') ?? '*'}`
    : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the request.
  useEffect(() => {
    setLoad(NO_HISTORY);
    if (!request) return;
    const controller = new AbortController();
    loadHistory(
      api,
      request,
      (next) => {
        if (!controller.signal.aborted) setLoad(next);
      },
      controller.signal,
    ).catch((error: unknown) => {
      if (controller.signal.aborted) return;
      setLoad((previous) => ({
        ...previous,
        done: true,
        error: error instanceof Error ? error : new Error(String(error)),
      }));
    });
    return () => controller.abort();
  }, [api, key]);
  return load;
}
