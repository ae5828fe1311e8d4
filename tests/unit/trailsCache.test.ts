import { describe, expect, it } from 'vitest';
import { TRACK_GAP_MS } from '../../src/domain/pathLength';
import { type SampleWindow, slicesBetween } from '../../src/streams/playbackWindows';
import { trailsFloorScene } from './helpers/trailsFloor';

// Pixi reads navigator when it loads (Node 20 has none); layers need no renderer to draw.
Object.assign(globalThis, { navigator: globalThis.navigator ?? { userAgent: 'node' } });
const { Container } = await import('pixi.js');
const { TRAILS, TrailsLayer } = await import('../../src/views/canvas/layers/TrailsLayer');
const { TRAIL_PIECE_MS, trailsOf } = await import('../../src/views/analytics/PlaybackFrame');
type Trail = import('../../src/views/canvas/layers/TrailsLayer').Trail;

function setUp() {
  const scene = trailsFloorScene();
  const world = new Container();
  const layer = new TrailsLayer();
  layer.attach(world);
  const draw = (trails: readonly Trail[], scale = 1) => {
    scene.setData(TRAILS, { trails });
    layer.update({ scene, view: { scale, x: 0, y: 0 } });
  };
  return { layer, draw };
}

const walk = (n: number, lat0: number): Trail => ({
  key: `walk:${lat0}`,
  colour: 0x1f77b4,
  lat: Array.from({ length: n }, () => lat0),
  long: Array.from({ length: n }, (_, i) => 55.2702 + i * 1.5e-6),
});

describe('the trails layer’s cache', () => {
  it('builds a trail object once, rebuilds it for another zoom bucket, and destroys what is gone', () => {
    const { layer, draw } = setUp();
    const [a, b, c] = [walk(100, 25.2008), walk(100, 25.2006), walk(100, 25.2004)];
    draw([a, b]);
    expect(layer.builds).toBe(2);
    const [ga, gb] = layer.trailGraphics;
    // The same objects again (a playback's past pieces), plus a new one: only the new one is built.
    draw([a, b, c]);
    expect(layer.builds).toBe(3);
    expect(layer.trailGraphics.slice(0, 2)).toEqual([ga, gb]);
    // A trail no longer passed is gone from the canvas and its Graphics destroyed (no leak).
    draw([a, c]);
    expect(layer.builds).toBe(3);
    expect(gb.destroyed).toBe(true);
    expect(ga.destroyed).toBe(false);
    expect(layer.trailGraphics).toHaveLength(2);
    expect(layer.trailGraphics[0]).toBe(ga);
    // Another zoom bucket: every trail shown is simplified and stroked again, in place.
    draw([a, c], 2);
    expect(layer.builds).toBe(5);
    expect(layer.trailGraphics[0]).toBe(ga);
    draw([]);
    expect(layer.trailGraphics).toHaveLength(0);
    expect(ga.destroyed).toBe(true);
    layer.destroy();
  });
});

type Columns = { lat: Float64Array; long: Float64Array };
const WINDOW_MS = 60_000;
const T0 = Date.UTC(2026, 10, 23, 6, 0, 0);

/**
 * Minutes of 1 Hz samples of helmets 1…3 (interleaved in time); lat is the helmet, long the
 * sample's second, so a drawn point says whose and when. Helmet 3 is lost in `gap`.
 */
function windowsOf(minutes: number, gap: [number, number] = [0, 0]): SampleWindow<Columns>[] {
  return Array.from({ length: minutes }, (_, w) => {
    const rows: [number, number][] = [];
    for (let s = w * 60; s < (w + 1) * 60; s++) {
      for (const helmet of [1, 2, 3]) {
        if (helmet === 3 && s >= gap[0] && s < gap[1]) continue;
        rows.push([T0 + s * 1000 + helmet * 100, helmet]);
      }
    }
    return {
      fromMs: T0 + w * WINDOW_MS,
      toMs: T0 + (w + 1) * WINDOW_MS,
      times: Float64Array.from(rows, ([t]) => t),
      entities: Uint32Array.from(rows, ([, h]) => h),
      payload: {
        lat: Float64Array.from(rows, ([, h]) => h),
        long: Float64Array.from(rows, ([t]) => Math.floor((t - T0) / 1000)),
      },
    };
  });
}

const frameAt = (windows: SampleWindow<Columns>[], playheadMs: number, trailMs: number) =>
  trailsOf(slicesBetween(windows, playheadMs - trailMs, playheadMs), (helmet) => helmet);

/** Each helmet's drawn steps as "second→second". */
function drawn(trails: readonly Trail[]) {
  const segments = new Map<number, Set<string>>();
  for (const trail of trails) {
    for (const [start, end] of trail.ranges ?? []) {
      const set = segments.get(trail.colour) ?? new Set<string>();
      segments.set(trail.colour, set);
      for (let i = start; i + 1 < end; i++) {
        const step = `${trail.long[i]}→${trail.long[i + 1]}`;
        // No step is drawn twice (pieces and segments meet end to end, never overlap).
        if (set.has(step)) throw new Error(`${trail.colour}: ${step} drawn twice`);
        set.add(step);
      }
    }
  }
  return segments;
}

describe('playback trails as pieces', () => {
  it('keeps the pieces behind the playhead as the same objects and makes only the head again', () => {
    const windows = windowsOf(4);
    const trailMs = 60_000;
    const at = T0 + 150_500;
    const first = frameAt(windows, at, trailMs);
    const second = frameAt(windows, at + 3000, trailMs);
    // Helmets 1…3 have colours 1…3: three trails per piece; the head piece is the last three.
    const past = first.slice(0, -3);
    expect(past.length).toBeGreaterThan(0);
    expect(second.slice(0, past.length)).toEqual(past);
    for (const [i, trail] of past.entries()) expect(second[i]).toBe(trail);
    expect(second.slice(-3).every((t) => !first.includes(t))).toBe(true);
    // The same playhead again (a paused redraw): nothing new at all.
    expect(frameAt(windows, at + 3000, trailMs)).toEqual(second);
    frameAt(windows, at + 3000, trailMs).forEach((t, i) => {
      expect(t).toBe(second[i]);
    });
    // Past the next piece boundary: the head piece is now whole, the older pieces are still the same.
    const third = frameAt(windows, at + TRAIL_PIECE_MS, trailMs);
    expect(past.filter((t) => third.includes(t)).length).toBeGreaterThanOrEqual(past.length - 3);
  });

  it('joins each helmet’s walk across pieces and windows, splits it at a gap, and reaches back by whole pieces', () => {
    // Helmet 3 is lost for 70 s (over TRACK_GAP_MS) from 2:05.
    expect(195 - 125).toBeGreaterThan(TRACK_GAP_MS / 1000);
    const at = T0 + 250_000;
    const trailMs = 180_000;
    // Drawn at once, or after a replay at uneven steps with seeks back (the kept segments and
    // completed pieces must join the same way).
    const played = windowsOf(5, [125, 195]);
    let ms = T0 + 200_000;
    for (const step of [300, 1700, 7000, 250, 250, -4000, 12_000, 600, -900, 20_000, 3000, 9000, 400]) {
      ms += step;
      frameAt(played, ms, trailMs);
    }
    expect(ms).toBe(at - 400);
    const replayed = drawn(frameAt(played, at, trailMs));
    const segments = drawn(frameAt(windowsOf(5, [125, 195]), at, trailMs));
    // Pieces passed at once are one run: after a jump the tail may reach a window further back.
    for (const [helmet, steps] of segments) {
      const more = [...replayed.get(helmet)!].filter((step) => !steps.has(step));
      expect([...steps].filter((step) => !replayed.get(helmet)!.has(step))).toEqual([]);
      expect(more.every((step) => Number(step.split('→')[1]) <= 70 && Number(step.split('→')[0]) >= 10)).toBe(
        true,
      );
    }
    // The trail starts at 1:10 (4:10 − 3 min), in the piece of 1:10–1:20, joined to the sample before it.
    const firstSecond = Math.floor((at - trailMs - T0) / 1000 / 10) * 10 - 1;
    for (const helmet of [1, 2]) {
      const want = new Set<string>();
      for (let s = firstSecond; s < 249; s++) want.add(`${s}→${s + 1}`);
      // Every step from the oldest piece's start to the playhead, none missing at 1:20, 2:00, …
      expect(segments.get(helmet)).toEqual(want);
    }
    const three = segments.get(3)!;
    expect(three.has('124→125')).toBe(false);
    expect(three.has('124→195')).toBe(false);
    expect(three.has('123→124')).toBe(true);
    expect(three.has('195→196')).toBe(true);
    // The playhead is 4:10: the head reaches it (the sample at 4:10.1 is after it, not drawn).
    expect(segments.get(1)!.has('249→250')).toBe(false);
    expect(segments.get(1)!.has('248→249')).toBe(true);
  });

  it('builds in the layer only what the playhead added, and destroys what left the trail', () => {
    const { layer, draw } = setUp();
    const windows = windowsOf(4);
    let at = T0 + 130_000;
    draw(frameAt(windows, at, 60_000));
    const built = layer.builds;
    const seen = new Set(layer.trailGraphics);
    // A minute of replay a quarter of a second at a time (the pace of 1× at 4 frames a second).
    for (let i = 0; i < 240; i++) {
      at += 250;
      const before = layer.builds;
      const trails = frameAt(windows, at, 60_000);
      draw(trails);
      // Three helmets, three colours: the tip, at most a segment kept, and a piece completed.
      expect(layer.builds - before).toBeLessThanOrEqual(9);
      expect(layer.trailGraphics).toHaveLength(trails.length);
      for (const g of layer.trailGraphics) seen.add(g);
    }
    // Far fewer builds than redrawing the whole trail on each frame.
    expect(layer.builds - built).toBeLessThan(240 * 3 * 2);
    // Every Graphics not shown any more has been destroyed: none accumulate.
    const shown = new Set(layer.trailGraphics);
    const gone = [...seen].filter((g) => !shown.has(g));
    expect(gone.length).toBeGreaterThan(0);
    expect(gone.every((g) => g.destroyed)).toBe(true);
    expect(layer.trailGraphics.length).toBeLessThan(3 * (7 + 12));
    layer.destroy();
  });
});
