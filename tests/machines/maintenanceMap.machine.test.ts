import { describe, expect, it } from 'vitest';
import { mapViewOf, pressedModes } from '../../src/machines/maintenanceMap.machine';
import { playbackStateOf } from '../../src/machines/playback.machine';
import { OTHER_RANGE, RANGE, startMaintenanceMap } from './helpers/maintenanceMapHarness';

const HOUR = 3_600_000;

describe('maintenance map machine', () => {
  it('opens on the live map with every mode off and nothing to reset', () => {
    const sut = startMaintenanceMap();
    expect(pressedModes(sut.snapshot())).toEqual({
      fullscreen: false,
      presentation: false,
      graph: false,
      playback: false,
    });
    expect(sut.snapshot().can({ type: 'mode.reset' })).toBe(false);
    expect(sut.clock()).toBeUndefined();
    // The player's controls mean nothing before a replay.
    expect(sut.snapshot().can({ type: 'playback.play' })).toBe(false);
  });

  it('replays on the clock it owns: loaded with the range, played, paused, stopped on leaving', () => {
    const sut = startMaintenanceMap();
    sut.send({ type: 'mode.playback' });
    const clock = sut.clock()!;
    expect(clock.getSnapshot().context.range).toEqual(RANGE);
    expect(playbackStateOf(clock.getSnapshot())).toBe('loading');
    // The history stream says the playhead's history is in; play, and an hour of ticks at 600×.
    sut.send({ type: 'stream.buffered' });
    sut.send({ type: 'playback.speed', speed: 600 });
    sut.send({ type: 'playback.play' });
    for (let i = 0; i < 6; i++) sut.send({ type: 'clock.tick', elapsedMs: 1_000 });
    expect(playbackStateOf(clock.getSnapshot())).toBe('playing');
    expect(clock.getSnapshot().context.playheadMs).toBe(RANGE.fromMs + HOUR);
    sut.send({ type: 'playback.pause' });
    expect(playbackStateOf(clock.getSnapshot())).toBe('paused');
    sut.send({ type: 'playback.seek', ms: RANGE.fromMs + 5 * HOUR });
    expect(clock.getSnapshot().context.playheadMs).toBe(RANGE.fromMs + 5 * HOUR);
    // The anchor graph leaves playback: the clock stops with it.
    sut.send({ type: 'mode.graph' });
    expect(mapViewOf(sut.snapshot())).toBe('graph');
    expect(clock.getSnapshot().status).toBe('stopped');
    expect(sut.clock()).toBeUndefined();
    // Back in playback: a new replay from the range's start.
    sut.send({ type: 'mode.playback' });
    expect(pressedModes(sut.snapshot())).toMatchObject({ graph: false, playback: true });
    expect(sut.clock()).not.toBe(clock);
    expect(sut.clock()!.getSnapshot().context.playheadMs).toBe(RANGE.fromMs);
  });

  it('loads a new range into a running replay, and keeps one picked outside it for the next', () => {
    const sut = startMaintenanceMap();
    sut.send({ type: 'range.set', range: OTHER_RANGE });
    expect(sut.snapshot().context.range).toEqual(OTHER_RANGE);
    sut.send({ type: 'mode.playback' });
    expect(sut.clock()!.getSnapshot().context.range).toEqual(OTHER_RANGE);
    sut.send({ type: 'stream.buffered' });
    sut.send({ type: 'playback.seek', ms: OTHER_RANGE.fromMs + HOUR });
    sut.send({ type: 'range.set', range: RANGE });
    const clock = sut.clock()!;
    expect(clock.getSnapshot().context).toMatchObject({ range: RANGE, playheadMs: RANGE.fromMs });
    expect(playbackStateOf(clock.getSnapshot())).toBe('loading');
    // A backwards range is refused.
    sut.send({ type: 'range.set', range: { fromMs: RANGE.toMs, toMs: RANGE.fromMs } });
    expect(sut.snapshot().context.range).toEqual(RANGE);
  });

  it('resets presentation and full screen but keeps the replay playing where it is', () => {
    const sut = startMaintenanceMap();
    sut.send({ type: 'mode.playback' });
    sut.send({ type: 'stream.buffered' });
    sut.send({ type: 'playback.play' });
    sut.send({ type: 'clock.tick', elapsedMs: 500 });
    expect(sut.send({ type: 'mode.fullscreen' })).toEqual(['enterFullscreen']);
    sut.send({ type: 'mode.presentation' });
    expect(pressedModes(sut.snapshot())).toEqual({
      fullscreen: true,
      presentation: true,
      graph: false,
      playback: true,
    });
    const clock = sut.clock()!;
    const playhead = clock.getSnapshot().context.playheadMs;
    expect(sut.send({ type: 'mode.reset' })).toEqual(['leaveFullscreen']);
    expect(pressedModes(sut.snapshot())).toEqual({
      fullscreen: false,
      presentation: false,
      graph: false,
      playback: true,
    });
    expect(sut.clock()).toBe(clock);
    expect(playbackStateOf(clock.getSnapshot())).toBe('playing');
    expect(clock.getSnapshot().context.playheadMs).toBe(playhead);
    expect(sut.snapshot().can({ type: 'mode.reset' })).toBe(false);
  });

  it('follows the browser out of full screen without asking it to leave again', () => {
    const sut = startMaintenanceMap();
    sut.send({ type: 'mode.graph' });
    sut.send({ type: 'mode.fullscreen' });
    expect(sut.send({ type: 'fullscreen.exited' })).toEqual([]);
    expect(pressedModes(sut.snapshot())).toMatchObject({ fullscreen: false, graph: true });
    // Not in full screen: a late exit from the document changes nothing.
    expect(sut.send({ type: 'fullscreen.exited' })).toEqual([]);
    expect(sut.snapshot().can({ type: 'fullscreen.exited' })).toBe(false);
  });

  it('combines full screen and presentation with either the anchor graph or playback', () => {
    const sut = startMaintenanceMap();
    sut.send({ type: 'mode.presentation' });
    sut.send({ type: 'mode.fullscreen' });
    sut.send({ type: 'mode.graph' });
    expect(pressedModes(sut.snapshot())).toEqual({
      fullscreen: true,
      presentation: true,
      graph: true,
      playback: false,
    });
    sut.send({ type: 'mode.playback' });
    expect(pressedModes(sut.snapshot())).toEqual({
      fullscreen: true,
      presentation: true,
      graph: false,
      playback: true,
    });
    sut.send({ type: 'mode.playback' });
    expect(mapViewOf(sut.snapshot())).toBe('live');
    expect(sut.clock()).toBeUndefined();
  });
});
