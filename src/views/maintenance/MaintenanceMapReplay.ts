import { distinctUntilChanged, ignoreElements, map, merge, Observable, of, switchMap, tap } from 'rxjs';
import type { ApiClient } from '../../api/client';
import { fetchNodePlaybackWindow } from '../../api/nodeMap';
import { SILENT_AFTER_S } from '../../domain/nodeHealth';
import type { ClockActor, ClockControlEvent } from '../../machines/maintenanceMap.machine';
import {
  type PlaybackRange,
  type PlaybackSnapshot,
  selectPlaybackRange,
  selectPlaybackSpeed,
  selectPlayheadMs,
} from '../../machines/playback.machine';
import {
  type NodePayload,
  nodeSampleWindow,
  type ReplayedNode,
  replayedNodes,
} from '../../streams/nodePlaybackWindows';
import { type FetchWindow, type PlaybackProgress, playbackStream } from '../../streams/playback.stream';

/**
 * The maintenance map's replay: the map machine's clock (its `clock` child while in playback)
 * drives the generic history player (src/streams/playback.stream.ts) over windows of the floor's
 * node reports (the playback route), as the analytics replay drives it over helmets. A new player
 * per loaded range; its buffering goes back through the map machine to the clock.
 */

/** A node silent this long is bad by the health rule: the replay shows no report older than that. */
export const REPLAY_STALE_MS = SILENT_AFTER_S.bad * 1000;

/** A day's replay in 96 windows of 15 minutes; never under a minute or over an hour. */
export function replayWindowMs(range: PlaybackRange): number {
  const minutes = Math.round((range.toMs - range.fromMs) / 96 / 60_000);
  return Math.min(60, Math.max(1, minutes)) * 60_000;
}

export function nodeWindowFetcher(api: ApiClient, floorId: number): FetchWindow<NodePayload> {
  return async (fromMs, toMs, signal) =>
    nodeSampleWindow(await fetchNodePlaybackWindow(api, floorId, { fromMs, toMs }, signal), fromMs, toMs);
}

/** The clock's snapshots, the current one first (an actor only tells of the next ones). */
export function clockSnapshots$(clock: ClockActor): Observable<PlaybackSnapshot> {
  return new Observable<PlaybackSnapshot>((subscriber) => {
    subscriber.next(clock.getSnapshot());
    const subscription = clock.subscribe({
      next: (next) => subscriber.next(next),
      error: (failure: unknown) => subscriber.error(failure),
    });
    return () => subscription.unsubscribe();
  });
}

export type ReplayEvent =
  | { readonly kind: 'frame'; readonly playheadMs: number; readonly nodes: readonly ReplayedNode[] }
  | { readonly kind: 'progress'; readonly progress: PlaybackProgress }
  | { readonly kind: 'idle' };

/**
 * Frames (the nodes at the playhead) and progress of the clock's loaded range; `send` carries the
 * player's buffering to the map machine, which passes it on to the clock.
 */
export function nodeReplay$(
  clock: ClockActor,
  fetchWindow: FetchWindow<NodePayload>,
  send: (event: ClockControlEvent) => void,
): Observable<ReplayEvent> {
  const snapshot$ = clockSnapshots$(clock);
  return snapshot$.pipe(
    map(selectPlaybackRange),
    distinctUntilChanged(),
    switchMap((range): Observable<ReplayEvent> => {
      if (!range) return of({ kind: 'idle' } as const);
      const player = playbackStream<NodePayload>({
        // From a quarter of an hour before the range, so its first frame has every node's last
        // report before it rather than an empty floor filling up.
        range: { fromMs: range.fromMs - REPLAY_STALE_MS, toMs: range.toMs },
        windowMs: replayWindowMs(range),
        fetchWindow,
        playhead$: snapshot$.pipe(map(selectPlayheadMs)),
        speed$: snapshot$.pipe(map(selectPlaybackSpeed)),
        staleMs: REPLAY_STALE_MS,
      });
      const feedback$ = player.buffering$.pipe(
        tap((buffering) => send({ type: buffering ? 'stream.buffering' : 'stream.buffered' })),
        ignoreElements(),
      );
      return merge(
        player.progress$.pipe(map((progress) => ({ kind: 'progress', progress }) as const)),
        player.frames$.pipe(
          map(
            (frame): ReplayEvent => ({
              kind: 'frame',
              playheadMs: frame.playheadMs,
              nodes: replayedNodes(frame.entities, frame.windows),
            }),
          ),
        ),
        feedback$,
      );
    }),
  );
}
