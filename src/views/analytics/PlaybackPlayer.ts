import { distinctUntilChanged, ignoreElements, map, merge, Observable, of, switchMap, tap } from 'rxjs';
import type { ActorRefFrom } from 'xstate';
import type { ApiClient } from '../../api/client';
import {
  type PlaybackRange,
  type PlaybackSnapshot,
  type playbackMachine,
  selectPlaybackRange,
  selectPlaybackSpeed,
  selectPlayheadMs,
} from '../../machines/playback.machine';
import {
  type FetchWindow,
  type PlaybackFrame,
  type PlaybackProgress,
  playbackStream,
} from '../../streams/playback.stream';
import { fetchWholeWindow } from '../canvas/trailsHistory';
import { type HistoryPayload, type HistoryWindow, historySampleWindow } from './PlaybackFrame';

/**
 * The playback screen's wiring of the playback machine to the generic history player
 * (src/streams/playback.stream.ts), as the player's usage note describes: the machine's playhead
 * and speed drive a player per loaded range, whose buffering goes back to the machine, over
 * windows of GET /api/floors/{id}/history fetched ahead of the playhead.
 */

/** History per player window: 60 s of a floor (60,000 positions of 1,000 workers: two chunks). */
export const PLAYBACK_WINDOW_MS = 60_000;
/** Windows kept by the screen across players (a heatmap switched on makes a new player). */
const KEPT_WINDOWS = 40;

export type PlaybackActor = ActorRefFrom<typeof playbackMachine>;

/** The machine's snapshots, the current one first (an actor only tells of the next ones). */
export function snapshots$(actor: PlaybackActor): Observable<PlaybackSnapshot> {
  return new Observable<PlaybackSnapshot>((subscriber) => {
    subscriber.next(actor.getSnapshot());
    const subscription = actor.subscribe({
      next: (next) => subscriber.next(next),
      error: (failure: unknown) => subscriber.error(failure),
    });
    return () => subscription.unsubscribe();
  });
}

/**
 * A floor's history windows as the player fetches them, with the ones already fetched for the
 * current range kept (least recently used go first), so a new player over the same range (the
 * heatmap's longer lookback) does not fetch them again; `fetched` counts the range's windows
 * fetched so far, "chunks fetched of total".
 */
export interface HistoryWindows {
  fetchWindow(range: PlaybackRange): FetchWindow<HistoryPayload>;
  fetched(range: PlaybackRange): number;
}

export function historyWindows(api: ApiClient, floorId: number, kept = KEPT_WINDOWS): HistoryWindows {
  let rangeKey = '';
  let windows = new Map<string, HistoryWindow>();
  let fetched = new Set<string>();
  const forRange = (range: PlaybackRange) => {
    const key = `${range.fromMs}|${range.toMs}`;
    if (key !== rangeKey) {
      rangeKey = key;
      windows = new Map();
      fetched = new Set();
    }
    return { windows, fetched };
  };
  return {
    fetchWindow(range) {
      return async (fromMs, toMs, signal) => {
        const key = `${fromMs}|${toMs}`;
        const known = forRange(range).windows.get(key);
        if (known) {
          windows.delete(key);
          windows.set(key, known);
          return known;
        }
        const chunks = await fetchWholeWindow(api, { floorId, workerIds: null }, { fromMs, toMs }, signal);
        const window = historySampleWindow(chunks, fromMs, toMs);
        const mine = forRange(range);
        if (signal.aborted) return window;
        mine.windows.set(key, window);
        mine.fetched.add(key);
        for (const old of mine.windows.keys()) {
          if (mine.windows.size <= kept) break;
          mine.windows.delete(old);
        }
        return window;
      };
    },
    fetched(range) {
      return forRange(range).fetched.size;
    },
  };
}

export type PlayerEvent =
  | { readonly kind: 'frame'; readonly frame: PlaybackFrame<HistoryPayload> }
  | { readonly kind: 'progress'; readonly progress: PlaybackProgress; readonly fetched: number }
  | { readonly kind: 'idle' };

export interface PlayerOptions {
  readonly windows: HistoryWindows;
  readonly trailMs: number;
  /** How far behind the playhead frames reach (the sliding heatmap's window when it is on). */
  readonly lookbackMs: number;
  readonly staleMs: number;
}

/**
 * Frames and progress of the machine's loaded range: a new player per `playback.load` (the range
 * object changes), `idle` once unloaded; the player's buffering is sent to the machine as
 * `stream.buffering` / `stream.buffered`.
 */
export function historyPlayer$(actor: PlaybackActor, options: PlayerOptions): Observable<PlayerEvent> {
  const snapshot$ = snapshots$(actor);
  return snapshot$.pipe(
    map(selectPlaybackRange),
    distinctUntilChanged(),
    switchMap((range): Observable<PlayerEvent> => {
      if (!range) return of({ kind: 'idle' } as const);
      const player = playbackStream<HistoryPayload>({
        range,
        windowMs: PLAYBACK_WINDOW_MS,
        fetchWindow: options.windows.fetchWindow(range),
        playhead$: snapshot$.pipe(map(selectPlayheadMs)),
        speed$: snapshot$.pipe(map(selectPlaybackSpeed)),
        trailMs: options.trailMs,
        lookbackMs: options.lookbackMs,
        staleMs: options.staleMs,
      });
      const feedback$ = player.buffering$.pipe(
        tap((buffering) => actor.send({ type: buffering ? 'stream.buffering' : 'stream.buffered' })),
        ignoreElements(),
      );
      return merge(
        player.progress$.pipe(
          map(
            (progress) => ({ kind: 'progress', progress, fetched: options.windows.fetched(range) }) as const,
          ),
        ),
        player.frames$.pipe(map((frame) => ({ kind: 'frame', frame }) as const)),
        feedback$,
      );
    }),
  );
}
