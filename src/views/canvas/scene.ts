import type { Floor, ImageProperties, LongLat, Zone } from '../../domain/floor';
import { type FloorTransform, fromLongLat, type ImagePoint, pointInPolygon } from '../../domain/geo';
import { connectionStatus, MARKER_COLOURS, type WorkerOnMap } from '../../domain/inventory';
import type { WorkerMap } from '../../streams/workerMapState';
import type { BlueprintResource } from './blueprintSource';
import { ProjectedWorkers } from './projectedWorkers';

/** A marker's colour (0xRRGGBB) for a helmet. */
export type MarkerColour = (worker: WorkerOnMap) => number;

/** The default: active, inactive or offline (spec §9). */
export function connectionColour(worker: WorkerOnMap): number {
  return MARKER_COLOURS[connectionStatus(worker)];
}

/** A zone with its ring already in image pixels, so hit-testing and drawing never project again. */
export interface ProjectedZone {
  readonly zone: Zone;
  readonly ring: readonly ImagePoint[];
  readonly bounds: { minX: number; minY: number; maxX: number; maxY: number };
}

/** A kind of data the scene holds for a layer without modelling it (layers/layerInputs.ts's LayerData). */
export interface SceneData<T> {
  readonly name: string;
  readonly initial: T;
}

/**
 * What the canvas shows, apart from how it draws it (Excalidraw's Scene): the floor's frame, its
 * zones in image pixels, the selection, the draft polygon and the pointer. Every part carries a
 * version so a layer redraws only when its part changed.
 */
export class FloorScene {
  size: ImageProperties = { width: 1000, height: 1000 };
  transform: FloorTransform | null = null;
  frameVersion = 0;

  /** The decoded blueprint image, checked before it gets here; null shows none. */
  blueprint: BlueprintResource | null = null;
  blueprintVersion = 0;

  private rawZones: readonly Zone[] = [];
  zones: readonly ProjectedZone[] = [];
  zonesVersion = 0;

  selectedId: number | null = null;
  selectionVersion = 0;

  private rawDraft: readonly LongLat[] | null = null;
  draft: readonly ImagePoint[] | null = null;
  draftVersion = 0;

  pointer: ImagePoint | null = null;
  pointerVersion = 0;

  private rawWorkers: WorkerMap = new Map();
  private markerColour: MarkerColour = connectionColour;
  /** The helmets with a position, in image pixels and marker colours. */
  readonly workers = new ProjectedWorkers();
  workersVersion = 0;

  selectedWorkerId: number | null = null;
  workerSelectionVersion = 0;

  /** Data of layers the scene does not model, by kind, each with its own version. */
  private readonly data = new Map<SceneData<unknown>, { value: unknown; version: number }>();

  setFrame(size: ImageProperties, transform: FloorTransform | null): void {
    this.size = size;
    this.transform = transform;
    this.frameVersion++;
    this.setZones(this.rawZones);
    this.setDraft(this.rawDraft);
    this.setWorkers(this.rawWorkers);
  }

  setBlueprint(blueprint: BlueprintResource | null): void {
    if (blueprint === this.blueprint) return;
    this.blueprint = blueprint;
    this.blueprintVersion++;
  }

  setData<T>(kind: SceneData<T>, value: T): void {
    const entry = this.data.get(kind as SceneData<unknown>);
    this.data.set(kind as SceneData<unknown>, { value, version: (entry?.version ?? 0) + 1 });
  }

  dataValue<T>(kind: SceneData<T>): T {
    const entry = this.data.get(kind as SceneData<unknown>);
    return entry ? (entry.value as T) : kind.initial;
  }

  dataVersion(kind: SceneData<unknown>): number {
    return this.data.get(kind)?.version ?? 0;
  }

  get workerMap(): WorkerMap {
    return this.rawWorkers;
  }

  /** How markers are coloured (by connection status unless a screen says otherwise, e.g. evacuation). */
  setMarkerColour(colour: MarkerColour | null): void {
    const next = colour ?? connectionColour;
    if (next === this.markerColour) return;
    this.markerColour = next;
    this.setWorkers(this.rawWorkers);
  }

  /** Projects every helmet that has a position; one without stays off the canvas. */
  setWorkers(workers: WorkerMap): void {
    this.rawWorkers = workers;
    const transform = this.transform;
    const out = this.workers;
    out.reset(transform ? workers.size : 0);
    if (transform) {
      for (const worker of workers.values()) {
        if (!worker.coordinates) continue;
        const p = transform.toImage(worker.coordinates);
        out.push(worker, p.x, p.y, this.markerColour(worker));
      }
    }
    this.workersVersion++;
    if (this.selectedWorkerId !== null && !out.has(this.selectedWorkerId)) this.selectWorker(null);
  }

  /** The selected helmet's latest data, or null. */
  get selectedWorker(): WorkerOnMap | null {
    return this.selectedWorkerId === null ? null : (this.workers.get(this.selectedWorkerId) ?? null);
  }

  /** Returns whether the selection changed; a helmet not on the canvas cannot be selected. */
  selectWorker(inventoryId: number | null): boolean {
    const next = inventoryId !== null && this.workers.has(inventoryId) ? inventoryId : null;
    if (next === this.selectedWorkerId) return false;
    this.selectedWorkerId = next;
    this.workerSelectionVersion++;
    return true;
  }

  setZones(zones: readonly Zone[]): void {
    this.rawZones = zones;
    const transform = this.transform;
    this.zones = transform
      ? zones.filter((z) => z.coordinates.length >= 3).map((z) => project(z, transform))
      : [];
    this.zonesVersion++;
    if (this.selectedId !== null && !this.zone(this.selectedId)) this.select(null);
  }

  zone(id: number): ProjectedZone | undefined {
    return this.zones.find((z) => z.zone.id === id);
  }

  /** Returns whether the selection changed. */
  select(id: number | null): boolean {
    const next = id !== null && this.zone(id) ? id : null;
    if (next === this.selectedId) return false;
    this.selectedId = next;
    this.selectionVersion++;
    return true;
  }

  /**
   * The zone `step` places after (or before) the selected one in list order; with `wrap` false,
   * null past either end, so Tab can leave the canvas there.
   */
  neighbour(step: 1 | -1, wrap: boolean): number | null {
    const n = this.zones.length;
    if (n === 0) return null;
    const index = this.selectedId === null ? -1 : this.zones.findIndex((z) => z.zone.id === this.selectedId);
    if (index === -1) return this.zones[step === 1 ? 0 : n - 1].zone.id;
    const next = index + step;
    if (next < 0 || next >= n) return wrap ? this.zones[(next + n) % n].zone.id : null;
    return this.zones[next].zone.id;
  }

  /** The topmost zone under `p`: zones later in the list draw over earlier ones. */
  hitTest(p: ImagePoint): ProjectedZone | null {
    for (let i = this.zones.length - 1; i >= 0; i--) {
      const z = this.zones[i];
      const b = z.bounds;
      if (p.x < b.minX || p.x > b.maxX || p.y < b.minY || p.y > b.maxY) continue;
      if (pointInPolygon(p, z.ring)) return z;
    }
    return null;
  }

  setDraft(vertices: readonly LongLat[] | null): void {
    this.rawDraft = vertices;
    const transform = this.transform;
    this.draft = vertices && transform ? vertices.map((v) => transform.toImage(fromLongLat(v))) : null;
    this.draftVersion++;
  }

  setPointer(p: ImagePoint | null): void {
    if (p === this.pointer) return;
    this.pointer = p;
    this.pointerVersion++;
  }
}

function project(zone: Zone, transform: FloorTransform): ProjectedZone {
  const ring = zone.coordinates.map((v) => transform.toImage(fromLongLat(v)));
  const bounds = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (const p of ring) {
    bounds.minX = Math.min(bounds.minX, p.x);
    bounds.minY = Math.min(bounds.minY, p.y);
    bounds.maxX = Math.max(bounds.maxX, p.x);
    bounds.maxY = Math.max(bounds.maxY, p.y);
  }
  return { zone, ring, bounds };
}

/** The pixel size of the world: the floor's stored image size, else the blueprint's own. */
export function worldSize(floor: Floor, blueprint: Size | null): ImageProperties {
  if (floor.image_properties && floor.image_properties.width > 0 && floor.image_properties.height > 0) {
    return floor.image_properties;
  }
  if (blueprint && blueprint.width > 0 && blueprint.height > 0) return blueprint;
  return { width: 1000, height: 1000 };
}

interface Size {
  width: number;
  height: number;
}
