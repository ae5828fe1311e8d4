import { BehaviorSubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { isPlaybackTicking, playbackMachine } from '../../src/machines/playback.machine';
import { MAX_TICK_MS, playbackTicks$ } from '../../src/streams/playbackClock';

describe('playback clock', () => {
  it('ticks the elapsed time between frames only while running, paused time never counting', () => {
    const running = new BehaviorSubject(false);
    const frames = new Subject<number>();
    const ticks: number[] = [];
    playbackTicks$(running, frames).subscribe((ms) => ticks.push(ms));
    frames.next(0);
    frames.next(16);
    expect(ticks).toEqual([]);
    running.next(true);
    frames.next(100); // the baseline
    frames.next(116);
    frames.next(133);
    expect(ticks).toEqual([16, 17]);
    running.next(false);
    frames.next(5_000);
    running.next(true);
    frames.next(6_000);
    frames.next(6_016);
    // A hidden tab's long gap counts as one capped tick.
    frames.next(60_000);
    expect(ticks).toEqual([16, 17, 16, MAX_TICK_MS]);
  });

  it('drives the machine: a minute of frames at 600× plays ten hours', () => {
    const from = Date.UTC(2025, 2, 1, 6);
    const actor = createActor(playbackMachine).start();
    actor.send({ type: 'playback.load', range: { fromMs: from, toMs: from + 10 * 3_600_000 } });
    actor.send({ type: 'stream.buffered' });
    actor.send({ type: 'playback.speed', speed: 600 });
    const running = new BehaviorSubject(isPlaybackTicking(actor.getSnapshot()));
    actor.subscribe((snapshot) => running.next(isPlaybackTicking(snapshot)));
    const frames = new Subject<number>();
    playbackTicks$(running, frames).subscribe((elapsedMs) => actor.send({ type: 'clock.tick', elapsedMs }));
    actor.send({ type: 'playback.play' });
    for (let t = 0; t <= 60_000; t += 100) frames.next(t);
    expect(actor.getSnapshot().value).toBe('ended');
    expect(actor.getSnapshot().context.playheadMs).toBe(from + 10 * 3_600_000);
    // Ended: the ticker stops.
    expect(running.getValue()).toBe(false);
  });
});
