import { animationFrames, distinctUntilChanged, EMPTY, map, Observable, switchMap } from 'rxjs';

/**
 * The playback machine's ticker: while `running$` is true, emits the real milliseconds elapsed
 * between animation frames, which the screen sends as `{ type: 'clock.tick', elapsedMs }`:
 *
 *   playbackTicks$(from(actor).pipe(map(isPlaybackTicking)))
 *     .subscribe((elapsedMs) => actor.send({ type: 'clock.tick', elapsedMs }));
 *
 * The first frame after starting only sets the baseline, so the time spent paused never counts.
 * A gap longer than `maxElapsedMs` (a background tab gets no frames) counts as `maxElapsedMs`:
 * coming back to the tab does not jump the replay ahead by the time it was hidden.
 */

/** Frame timestamps in ms (performance.now() style); the browser's animation frames by default. */
export type FrameSource = Observable<number>;

export const browserFrames: FrameSource = animationFrames().pipe(map((frame) => frame.timestamp));

/** The longest real time one tick may carry. */
export const MAX_TICK_MS = 250;

export function playbackTicks$(
  running$: Observable<boolean>,
  frames$: FrameSource = browserFrames,
  maxElapsedMs = MAX_TICK_MS,
): Observable<number> {
  return running$.pipe(
    // The machine's snapshots repeat `true` on every tick: only a change restarts the baseline.
    distinctUntilChanged(),
    switchMap((running) =>
      running
        ? new Observable<number>((subscriber) => {
            let last: number | null = null;
            return frames$.subscribe({
              next: (now) => {
                const previous = last;
                last = now;
                if (previous === null) return;
                const elapsed = Math.min(maxElapsedMs, now - previous);
                if (elapsed > 0) subscriber.next(elapsed);
              },
              error: (failure: unknown) => subscriber.error(failure),
              complete: () => subscriber.complete(),
            });
          })
        : EMPTY,
    ),
  );
}
