import { describe, expect, it } from 'vitest';
import { createActor, type EventFrom } from 'xstate';
import {
  adjacentSpeed,
  isPlaybackBuffering,
  isPlaybackRunning,
  isPlaybackTicking,
  PLAYBACK_SPEEDS,
  PLAYBACK_STEP_MS,
  playbackFraction,
  playbackMachine,
  playbackStateOf,
} from '../../src/machines/playback.machine';

/** A 10-hour shift: 06:00 to 16:00 on 1 March 2025. */
const FROM = Date.UTC(2025, 2, 1, 6);
const TO = Date.UTC(2025, 2, 1, 16);
const RANGE = { fromMs: FROM, toMs: TO };
const HOUR = 3_600_000;

function start() {
  const actor = createActor(playbackMachine).start();
  return {
    send: (event: EventFrom<typeof playbackMachine>) => actor.send(event),
    snapshot: () => actor.getSnapshot(),
    state: () => playbackStateOf(actor.getSnapshot()),
    playhead: () => actor.getSnapshot().context.playheadMs,
  };
}

/** Loaded and buffered: paused at the range's start. */
function loaded() {
  const sut = start();
  sut.send({ type: 'playback.load', range: RANGE });
  sut.send({ type: 'stream.buffered' });
  return sut;
}

describe('playback machine', () => {
  it('starts idle: nothing plays, seeks or ticks until a range is loaded', () => {
    const sut = start();
    expect(sut.state()).toBe('idle');
    expect(sut.snapshot().can({ type: 'playback.play' })).toBe(false);
    expect(sut.snapshot().can({ type: 'playback.seek', ms: FROM })).toBe(false);
    expect(sut.snapshot().can({ type: 'clock.tick', elapsedMs: 16 })).toBe(false);
    expect(sut.snapshot().can({ type: 'playback.load', range: RANGE })).toBe(true);
    // An empty or backwards range is refused.
    expect(sut.snapshot().can({ type: 'playback.load', range: { fromMs: TO, toMs: TO } })).toBe(false);
    expect(sut.snapshot().can({ type: 'playback.load', range: { fromMs: TO, toMs: FROM } })).toBe(false);
    expect(sut.snapshot().can({ type: 'playback.load', range: { fromMs: FROM, toMs: Number.NaN } })).toBe(
      false,
    );
  });

  it('loads into buffering at the range start (or the asked time), then pauses there', () => {
    const sut = start();
    sut.send({ type: 'playback.load', range: RANGE, playheadMs: FROM + 10 * HOUR + 1 });
    expect(sut.state()).toBe('loading');
    expect(isPlaybackBuffering(sut.snapshot())).toBe(true);
    expect(sut.playhead()).toBe(TO);
    sut.send({ type: 'playback.load', range: RANGE });
    expect(sut.playhead()).toBe(FROM);
    sut.send({ type: 'clock.tick', elapsedMs: 1_000 });
    expect(sut.playhead()).toBe(FROM);
    sut.send({ type: 'stream.buffered' });
    expect(sut.state()).toBe('paused');
    expect(isPlaybackBuffering(sut.snapshot())).toBe(false);
  });

  it('plays at elapsed × speed and pauses', () => {
    const sut = loaded();
    sut.send({ type: 'playback.play' });
    expect(sut.state()).toBe('playing');
    expect(isPlaybackTicking(sut.snapshot())).toBe(true);
    sut.send({ type: 'clock.tick', elapsedMs: 16 });
    expect(sut.playhead()).toBe(FROM + 16);
    sut.send({ type: 'playback.speed', speed: 600 });
    sut.send({ type: 'clock.tick', elapsedMs: 1_000 });
    expect(sut.playhead()).toBe(FROM + 16 + 600_000);
    sut.send({ type: 'playback.pause' });
    sut.send({ type: 'clock.tick', elapsedMs: 1_000 });
    expect(sut.state()).toBe('paused');
    expect(sut.playhead()).toBe(FROM + 16 + 600_000);
  });

  it('plays a 10-hour shift in one minute at 600×, ending exactly at the range end', () => {
    const sut = loaded();
    sut.send({ type: 'playback.speed', speed: 600 });
    sut.send({ type: 'playback.play' });
    for (let second = 0; second < 59; second++) sut.send({ type: 'clock.tick', elapsedMs: 1_000 });
    expect(sut.state()).toBe('playing');
    sut.send({ type: 'clock.tick', elapsedMs: 1_500 });
    expect(sut.state()).toBe('ended');
    expect(sut.playhead()).toBe(TO);
    expect(playbackFraction(sut.snapshot())).toBe(1);
    expect(sut.snapshot().can({ type: 'playback.pause' })).toBe(false);
    expect(sut.snapshot().can({ type: 'playback.step', direction: 1 })).toBe(false);
  });

  it('plays again from the start once ended', () => {
    const sut = loaded();
    sut.send({ type: 'playback.seek', ms: TO });
    expect(sut.state()).toBe('ended');
    sut.send({ type: 'playback.toggle' });
    expect(sut.state()).toBe('playing');
    expect(sut.playhead()).toBe(FROM);
  });

  it('offers only the listed speeds, and steps through them', () => {
    const sut = loaded();
    for (const speed of [0, 3, -1, 1_000, Number.NaN]) {
      expect(sut.snapshot().can({ type: 'playback.speed', speed })).toBe(false);
      sut.send({ type: 'playback.speed', speed });
      expect(sut.snapshot().context.speed).toBe(1);
    }
    for (const speed of PLAYBACK_SPEEDS) {
      sut.send({ type: 'playback.speed', speed });
      expect(sut.snapshot().context.speed).toBe(speed);
    }
    expect(adjacentSpeed(600, 1)).toBe(600);
    expect(adjacentSpeed(1, -1)).toBe(1);
    expect(adjacentSpeed(10, 1)).toBe(30);
    expect(adjacentSpeed(10, -1)).toBe(5);
  });

  it('jumps to a clock time, clamped to the range', () => {
    const sut = loaded();
    sut.send({ type: 'playback.seek', ms: FROM + 10 * HOUR - HOUR }); // 15:00
    expect(sut.playhead()).toBe(Date.UTC(2025, 2, 1, 15));
    sut.send({ type: 'playback.seek', ms: FROM - HOUR });
    expect(sut.playhead()).toBe(FROM);
    expect(sut.snapshot().can({ type: 'playback.seek', ms: Number.NaN })).toBe(false);
    sut.send({ type: 'playback.seek', ms: TO + HOUR });
    expect(sut.playhead()).toBe(TO);
    expect(sut.state()).toBe('ended');
    sut.send({ type: 'playback.seek', ms: FROM + HOUR });
    expect(sut.state()).toBe('paused');
  });

  it('steps a second (or a given span) either way, pausing a playing replay', () => {
    const sut = loaded();
    expect(sut.snapshot().can({ type: 'playback.step', direction: -1 })).toBe(false);
    sut.send({ type: 'playback.step', direction: 1 });
    expect(sut.playhead()).toBe(FROM + PLAYBACK_STEP_MS);
    sut.send({ type: 'playback.step', direction: 1, ms: 60_000 });
    expect(sut.playhead()).toBe(FROM + PLAYBACK_STEP_MS + 60_000);
    sut.send({ type: 'playback.play' });
    sut.send({ type: 'playback.step', direction: -1 });
    expect(sut.state()).toBe('paused');
    expect(sut.playhead()).toBe(FROM + 60_000);
    sut.send({ type: 'playback.step', direction: 1, ms: 11 * HOUR });
    expect(sut.state()).toBe('ended');
    sut.send({ type: 'playback.step', direction: -1 });
    expect(sut.state()).toBe('paused');
    expect(sut.playhead()).toBe(TO - PLAYBACK_STEP_MS);
  });

  it('waits for history without advancing, then plays on only if it was playing', () => {
    const sut = loaded();
    sut.send({ type: 'playback.play' });
    sut.send({ type: 'clock.tick', elapsedMs: 100 });
    sut.send({ type: 'stream.buffering' });
    expect(sut.state()).toBe('loading');
    expect(isPlaybackRunning(sut.snapshot())).toBe(true);
    expect(isPlaybackTicking(sut.snapshot())).toBe(false);
    sut.send({ type: 'clock.tick', elapsedMs: 100 });
    expect(sut.playhead()).toBe(FROM + 100);
    sut.send({ type: 'stream.buffered' });
    expect(sut.state()).toBe('playing');

    sut.send({ type: 'playback.pause' });
    sut.send({ type: 'stream.buffering' });
    expect(isPlaybackRunning(sut.snapshot())).toBe(false);
    sut.send({ type: 'stream.buffered' });
    expect(sut.state()).toBe('paused');
  });

  it('takes play, pause and seeks while buffering, and applies them once buffered', () => {
    const sut = start();
    sut.send({ type: 'playback.load', range: RANGE });
    sut.send({ type: 'playback.toggle' });
    expect(isPlaybackRunning(sut.snapshot())).toBe(true);
    sut.send({ type: 'playback.seek', ms: FROM + HOUR });
    expect(sut.playhead()).toBe(FROM + HOUR);
    sut.send({ type: 'stream.buffered' });
    expect(sut.state()).toBe('playing');

    // A seek to the end while buffering ends the replay once buffered; play then starts over.
    sut.send({ type: 'stream.buffering' });
    sut.send({ type: 'playback.pause' });
    sut.send({ type: 'playback.seek', ms: TO });
    sut.send({ type: 'playback.play' });
    expect(sut.playhead()).toBe(FROM);
    sut.send({ type: 'playback.seek', ms: TO });
    sut.send({ type: 'stream.buffered' });
    expect(sut.state()).toBe('ended');
  });

  it('starts over on a new range from any state, and unload returns to idle keeping the speed', () => {
    const sut = loaded();
    sut.send({ type: 'playback.speed', speed: 60 });
    sut.send({ type: 'playback.play' });
    sut.send({ type: 'playback.load', range: { fromMs: TO, toMs: TO + HOUR } });
    expect(sut.state()).toBe('loading');
    expect(isPlaybackRunning(sut.snapshot())).toBe(false);
    expect(sut.playhead()).toBe(TO);
    sut.send({ type: 'playback.unload' });
    expect(sut.state()).toBe('idle');
    expect(sut.snapshot().context).toEqual({ range: null, playheadMs: 0, speed: 60 });
    expect(playbackFraction(sut.snapshot())).toBe(0);
  });

  it('ignores ticks that are not a positive finite time', () => {
    const sut = loaded();
    sut.send({ type: 'playback.play' });
    for (const elapsedMs of [0, -16, Number.NaN]) {
      expect(sut.snapshot().can({ type: 'clock.tick', elapsedMs })).toBe(false);
      sut.send({ type: 'clock.tick', elapsedMs });
    }
    expect(sut.playhead()).toBe(FROM);
  });
});
