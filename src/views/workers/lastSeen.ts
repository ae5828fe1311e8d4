import dayjs from 'dayjs';
import 'dayjs/locale/ar';
import { distinctUntilChanged, map, type Observable, scan, startWith } from 'rxjs';
import type { WorkerOnMap } from '../../domain/inventory';
import type { WorkerHelmetHistoryEntry, WorkerNested } from '../../domain/workers';
import type { WorkerMap } from '../../streams/workerMapState';

/**
 * Pure helpers of the worker's page (issue 6): the helmet history as rows, and where the worker's
 * helmet was last seen as one marker for the floor canvas, following the floor's live stream.
 */

export interface HelmetHistoryRow {
  key: string;
  helmet: string;
  from: string;
  /** null while the helmet is still worn. */
  to: string | null;
}

/** A time in the console's language and the browser's time zone, e.g. "24 Oct 2026, 08:00". */
export function historyTime(iso: string, locale: string): string {
  const at = dayjs(iso);
  return at.isValid() ? at.locale(locale === 'ar' ? 'ar' : 'en').format('D MMM YYYY, HH:mm') : iso;
}

/** The history as the server sends it (newest first), one row per assignment. */
export function helmetHistoryRows(
  history: readonly WorkerHelmetHistoryEntry[],
  locale: string,
): HelmetHistoryRow[] {
  return history.map((entry) => ({
    key: `${entry.inventory_id}-${entry.assigned_at}`,
    helmet: entry.wnt_inventory_id,
    from: historyTime(entry.assigned_at, locale),
    to: entry.unassigned_at === null ? null : historyTime(entry.unassigned_at, locale),
  }));
}

/** Where the floor canvas should open: the helmet's floor and building, or null when never placed. */
export function lastSeenFloor(worker: WorkerNested): { floorId: number; buildingId: number } | null {
  const inventory = worker.Inventory;
  if (!inventory?.floor_id || !inventory.building_id) return null;
  return { floorId: inventory.floor_id, buildingId: inventory.building_id };
}

/** The worker's helmet as a canvas marker, from the worker's own reply; null without a position. */
export function lastSeenMarker(worker: WorkerNested): WorkerOnMap | null {
  const inventory = worker.Inventory;
  if (worker.inventory_id === null || !inventory?.coordinates || !inventory.floor_id) return null;
  return {
    id: worker.id,
    inventory_id: worker.inventory_id,
    wnt_inventory_id: inventory.wnt_inventory_id,
    coordinates: inventory.coordinates,
    name: worker.name,
    worker_tag_id: worker.worker_tag_id,
    contact_number: worker.contact_number,
    role_name: worker.WorkerRole?.name ?? null,
    subcontractor_name: worker.Subcontractor?.name ?? null,
    last_seen: inventory.last_seen,
    is_online: inventory.is_online,
    is_active: inventory.is_active,
    profile_picture_path: worker.media_url,
    helmet_color: worker.helmet_color ?? null,
    zone_id: inventory.zone_id ?? null,
    zone_name: inventory.Zone?.name ?? null,
    blueprint_id: inventory.floor_id,
    blueprint_name: inventory.Floor?.name ?? null,
  };
}

/**
 * The helmet's marker: the worker's reply first, then the floor's live state for that helmet.
 * Once live data has had the helmet, its absence means it left the floor: null (the page then
 * reloads the worker to find where it went), never the stale first position.
 */
export function followHelmet$(
  seed: WorkerOnMap,
  floor$: Observable<WorkerMap>,
): Observable<WorkerOnMap | null> {
  return floor$.pipe(
    scan(
      (state: { seen: boolean; marker: WorkerOnMap | null }, workers) => {
        const live = workers.get(seed.inventory_id);
        if (live?.coordinates) return { seen: true, marker: live };
        return { seen: state.seen, marker: state.seen ? null : seed };
      },
      { seen: false, marker: seed },
    ),
    map((state) => state.marker),
    startWith(seed),
    distinctUntilChanged(),
  );
}

/** One marker as the map the canvas draws. */
export function asWorkerMap(marker: WorkerOnMap | null): WorkerMap {
  return marker ? new Map([[marker.inventory_id, marker]]) : new Map();
}
