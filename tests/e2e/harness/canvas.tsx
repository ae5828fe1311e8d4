// A page with nothing but the floor canvas, for the canvas test and benchmark: the console has
// no route that shows the canvas alone. Tests drive it through `window.canvasHarness`.
import '@blueprintjs/core/lib/css/blueprint.css';
import { Icons } from '@blueprintjs/icons';
import { createRef, StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { BehaviorSubject } from 'rxjs';
import type { Floor, LongLat, Zone, ZoneKind } from '../../../src/domain/floor';
import { floorTransform, imagePoint, toLongLat } from '../../../src/domain/geo';
import type { WorkerOnMap } from '../../../src/domain/inventory';
import { addScreenTexts, initI18n } from '../../../src/i18n';
import { ENGLISH_SCREENS } from '../../../src/i18n/englishScreens';
import type { WorkerMap } from '../../../src/streams/workerMapState';
import {
  FloorCanvas,
  type FloorCanvasElement,
  type FloorCanvasHandle,
} from '../../../src/views/canvas/FloorCanvas';
import type { CanvasStatus } from '../../../src/views/canvas/FloorCanvasEngine';
import { imageToScreen } from '../../../src/views/canvas/viewport';
import { canvasLayerProbe } from './canvasProbeLayers';
import {
  BLUEPRINT_COLOUR,
  CORNERS,
  type HarnessWorker,
  type HarnessWorkerStatus,
  type HarnessZone,
  harnessMode,
  IMAGE,
  type MountOptions,
} from './fixture';
import { measurePlayback, type PlaybackRunOptions, playbackLayerData } from './playbackFixture';

void Icons.loadAll({ loader: 'all' });
const i18n = initI18n('en');
/** `?mode=playback` binds the trails layer for a replay (bench/playbackFrames.bench.ts). */
const mode = harnessMode(location.search);
const layerData = mode === 'playback' ? playbackLayerData : undefined;
addScreenTexts(ENGLISH_SCREENS);

const floor: Floor = {
  id: 1,
  building_id: 1,
  name: 'Level 1',
  altitude: 0,
  category: 'floor',
  media_url: null,
  image_properties: IMAGE,
  coordinates: CORNERS,
  cellSizeMetres: 1,
  online_active_worker_count: 0,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

/** A plain beige sheet with walls only in the top strip, so the rest is a known colour. */
async function generatedBlueprint(): Promise<ImageBitmap> {
  const canvas = new OffscreenCanvas(IMAGE.width, IMAGE.height);
  const g = canvas.getContext('2d')!;
  g.fillStyle = `rgb(${BLUEPRINT_COLOUR.join(',')})`;
  g.fillRect(0, 0, IMAGE.width, IMAGE.height);
  g.strokeStyle = '#30404d';
  g.lineWidth = 8;
  g.strokeRect(4, 4, IMAGE.width - 8, IMAGE.height - 8);
  for (let x = 0; x < IMAGE.width; x += 250) {
    g.strokeRect(x + 10, 10, 240, 120);
  }
  return createImageBitmap(canvas);
}

function gridZones(count: number): HarnessZone[] {
  const columns = Math.ceil(Math.sqrt((count * IMAGE.width) / IMAGE.height));
  const rows = Math.ceil(count / columns);
  const w = IMAGE.width / columns;
  const h = IMAGE.height / rows;
  const kinds: ZoneKind[] = ['work', 'restricted', 'assembly'];
  return Array.from({ length: count }, (_, i) => {
    const x = (i % columns) * w + w * 0.1;
    const y = Math.floor(i / columns) * h + h * 0.1;
    // Hexagon-ish rings: more vertices than a square, like hand-drawn zones.
    const ring: [number, number][] = [
      [x, y],
      [x + w * 0.4, y - h * 0.05],
      [x + w * 0.8, y],
      [x + w * 0.8, y + h * 0.8],
      [x + w * 0.4, y + h * 0.85],
      [x, y + h * 0.8],
    ];
    return { id: i + 1, name: `Zone ${i + 1}`, kind: kinds[i % 3], ring };
  });
}

const transform = floorTransform(CORNERS, IMAGE);
const toZone = (z: HarnessZone): Zone => ({
  id: z.id,
  floor_id: floor.id,
  name: z.name,
  kind: z.kind,
  coordinates: z.ring.map(([x, y]): LongLat => toLongLat(transform.toGeo(imagePoint(x, y)))),
  created_at: floor.created_at,
  updated_at: floor.updated_at,
});

const STATUS_FLAGS: Record<HarnessWorkerStatus, { is_online: boolean; is_active: boolean }> = {
  active: { is_online: true, is_active: true },
  inactive: { is_online: true, is_active: false },
  offline: { is_online: false, is_active: false },
};

const toWorker = (w: HarnessWorker): WorkerOnMap => {
  const geo = transform.toGeo(imagePoint(w.at[0], w.at[1]));
  return {
    id: w.name === null ? null : w.inventory_id,
    inventory_id: w.inventory_id,
    wnt_inventory_id: `HLM-${w.inventory_id}`,
    coordinates: { lat: geo.lat, long: geo.long },
    name: w.name,
    worker_tag_id: `WT-${w.inventory_id}`,
    contact_number: w.inventory_id % 2 ? '+971 50 000 0000' : null,
    role_name: 'Steel fixer',
    subcontractor_name: w.inventory_id % 3 ? 'Gulf Rebar LLC' : null,
    last_seen: new Date(Date.now() - 120_000).toISOString(),
    ...STATUS_FLAGS[w.status],
    profile_picture_path: null,
    helmet_color: null,
    zone_id: null,
    zone_name: 'Level work',
    blueprint_id: floor.id,
    blueprint_name: floor.name,
  };
};

const STATUSES: HarnessWorkerStatus[] = ['active', 'inactive', 'offline'];

/** Helmets on a jittered grid over the floor (deterministic, so screenshots compare). */
function gridWorkers(count: number): HarnessWorker[] {
  const columns = Math.ceil(Math.sqrt((count * IMAGE.width) / IMAGE.height));
  const rows = Math.ceil(count / columns);
  const w = IMAGE.width / columns;
  const h = IMAGE.height / rows;
  return Array.from({ length: count }, (_, i) => ({
    inventory_id: i + 1,
    name: `Worker ${i + 1}`,
    status: STATUSES[i % 3],
    at: [
      ((i % columns) + 0.5 + 0.3 * Math.sin(i)) * w,
      (Math.floor(i / columns) + 0.5 + 0.3 * Math.cos(i)) * h,
    ],
  }));
}

const mapOfWorkers = (list: readonly WorkerOnMap[]): WorkerMap =>
  new Map(list.map((w) => [w.inventory_id, w]));

let root: Root | null = null;
const handle = createRef<FloorCanvasHandle>();
const zones$ = new BehaviorSubject<readonly Zone[]>([]);
const workers$ = new BehaviorSubject<WorkerMap>(new Map());

const harness = {
  selections: [] as (number | null)[],
  pointerEvents: [] as { type: string; zoneId: number | null; lat: number; long: number }[],
  status: null as CanvasStatus | null,
  workerSelections: [] as (number | null)[],

  async mount(options: MountOptions = {}): Promise<string | null> {
    root?.unmount();
    harness.selections = [];
    harness.pointerEvents = [];
    harness.status = null;
    harness.workerSelections = [];
    const container = document.getElementById('root')!;
    container.style.width = options.width ? `${options.width}px` : '100%';
    container.style.height = options.height ? `${options.height}px` : '100%';
    const source =
      options.blueprint === 'none'
        ? null
        : options.blueprint === 'broken'
          ? new Image() // never loaded: no pixels
          : await generatedBlueprint();
    zones$.next((options.zones ?? gridZones(options.zoneCount ?? 0)).map(toZone));
    workers$.next(mapOfWorkers((options.workers ?? gridWorkers(options.workerCount ?? 0)).map(toWorker)));
    root = createRoot(container);
    root.render(
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          <FloorCanvas
            ref={handle}
            className="harness-canvas"
            floor={floor}
            blueprint={source}
            zones$={zones$}
            workers$={workers$}
            layerData={layerData}
            onSelectWorker={(w) => harness.workerSelections.push(w?.inventory_id ?? null)}
            onSelectZone={(id) => harness.selections.push(id)}
            onPointer={(e) =>
              harness.pointerEvents.push({ type: e.type, zoneId: e.zoneId, lat: e.geo.lat, long: e.geo.long })
            }
            onStatus={(s) => {
              harness.status = s;
            }}
          />
        </I18nextProvider>
      </StrictMode>,
    );
    const engine = await until(() => handle.current?.engine ?? null);
    await engine.ready;
    // The renderer reaches the attribute through a React state update, which a busy machine may
    // commit frames after the engine is ready (and StrictMode's second engine replaces the first).
    const renderer = await until(
      () => document.querySelector('[data-testid="floor-canvas"]')?.getAttribute('data-renderer') ?? null,
      5000,
    ).catch(() => null);
    await nextFrames(2);
    return renderer;
  },

  /** Where an image point is on the page (CSS pixels), for clicks and pixel checks. */
  pageAt(x: number, y: number): { x: number; y: number } {
    const engine = handle.current!.engine!;
    const canvas = document.querySelector('.harness-canvas canvas')!.getBoundingClientRect();
    const s = imageToScreen(engine.getView(), imagePoint(x, y));
    return { x: canvas.left + s.x, y: canvas.top + s.y };
  },

  view() {
    return handle.current!.engine!.getView();
  },

  /** The engine itself, for poking at from a debugger or a one-off script. */
  engine() {
    return handle.current!.engine!;
  },

  stats() {
    return handle.current!.engine!.stats();
  },

  /** Replaces the helmets, as a snapshot would. */
  setWorkers(list: HarnessWorker[]) {
    workers$.next(mapOfWorkers(list.map(toWorker)));
  },

  /** The markers as drawn, read the way an end-to-end test reads a console canvas. */
  drawnWorkers() {
    const element = document.querySelector<FloorCanvasElement>('[data-testid="floor-canvas"]');
    return element?.floorCanvasDebug?.()?.workers ?? [];
  },

  /**
   * Frame times (ms) while every helmet moves every frame (a new map each frame, as a busy live
   * stream would give), with the view still: what the workers layer costs.
   */
  async measureMovingWorkers(frames: number): Promise<number[]> {
    const base = [...workers$.value.values()];
    const deltas: number[] = [];
    await nextFrames(10);
    let last = performance.now();
    for (let i = 0; i < frames; i++) {
      const shift = Math.sin(i / 8) * 0.00002;
      workers$.next(
        mapOfWorkers(
          base.map((w) =>
            w.coordinates
              ? { ...w, coordinates: { lat: w.coordinates.lat + shift, long: w.coordinates.long + shift } }
              : w,
          ),
        ),
      );
      const now = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
      deltas.push(now - last);
      last = now;
    }
    return deltas;
  },

  /**
   * Frame times (requestAnimationFrame deltas, ms) over `frames` frames while the view pans a
   * little every frame, so Pixi renders a moved world each time.
   */
  async measureFrames(frames: number): Promise<number[]> {
    const engine = handle.current!.engine!;
    const start = engine.getView();
    const deltas: number[] = [];
    await nextFrames(10);
    let last = performance.now();
    for (let i = 0; i < frames; i++) {
      engine.setView({ ...start, x: start.x + Math.sin(i / 10) * 40, y: start.y + Math.cos(i / 10) * 20 });
      const now = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
      deltas.push(now - last);
      last = now;
    }
    engine.setView(start);
    return deltas;
  },

  /** Replays a synthetic day onto the mounted canvas and measures its frames (playback mode only). */
  measurePlayback(options: PlaybackRunOptions) {
    if (mode !== 'playback') throw new Error('measurePlayback needs canvas.html?mode=playback');
    return measurePlayback(options, { workers$, floor, stats: () => harness.stats() });
  },

  /** The floor on a bare engine with two extra layers from the registry (canvasProbeLayers.ts). */
  mountWithProbeLayers(): Promise<string> {
    root?.unmount();
    root = null;
    return canvasLayerProbe.mount(floor);
  },

  nextFrames,
};

function nextFrames(n: number): Promise<void> {
  return new Promise((resolve) => {
    const step = () => (--n <= 0 ? resolve() : requestAnimationFrame(step));
    requestAnimationFrame(step);
  });
}

async function until<T>(probe: () => T | null, timeoutMs = Number.POSITIVE_INFINITY): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== null) return value;
    if (performance.now() > deadline) throw new Error('timed out');
    await nextFrames(1);
  }
}

declare global {
  interface Window {
    canvasHarness: typeof harness;
  }
}
window.canvasHarness = harness;
