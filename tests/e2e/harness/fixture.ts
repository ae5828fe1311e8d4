// Shared by the harness page and the Node side of the canvas test and benchmark.
import type { FloorCorners, ZoneKind } from '../../../src/domain/floor';

export const IMAGE = { width: 2000, height: 1200 };
export const BLUEPRINT_COLOUR = [232, 228, 216] as const;

/** A slightly rotated floor in Dubai, about 200 m × 120 m. */
export const CORNERS: FloorCorners = {
  a: { lat: 25.2012, long: 55.27 },
  b: { lat: 25.2016, long: 55.272 },
  c: { lat: 25.2005, long: 55.2724 },
  d: { lat: 25.2001, long: 55.2704 },
};

export interface HarnessZone {
  id: number;
  name: string;
  kind: ZoneKind;
  /** Vertices in blueprint pixels; the harness turns them into [long, lat] through the floor's corners. */
  ring: [number, number][];
}

export type HarnessWorkerStatus = 'active' | 'inactive' | 'offline';

export interface HarnessWorker {
  inventory_id: number;
  name: string | null;
  status: HarnessWorkerStatus;
  /** Where the helmet is, in blueprint pixels; the harness turns it into lat/long. */
  at: [number, number];
}

export interface MountOptions {
  workers?: HarnessWorker[];
  /** Generated helmets instead: this many spread over the floor, a third in each status. */
  workerCount?: number;
  zones?: HarnessZone[];
  /** Generated zones instead: a grid of this many small squares over the floor. */
  zoneCount?: number;
  blueprint?: 'generated' | 'broken' | 'none';
  width?: number;
  height?: number;
}

/** What the harness page does beyond the live canvas: `?mode=playback` binds the trails layer for a replay. */
export type HarnessMode = 'live' | 'playback';

export function harnessMode(search: string): HarnessMode {
  return new URLSearchParams(search).get('mode') === 'playback' ? 'playback' : 'live';
}
