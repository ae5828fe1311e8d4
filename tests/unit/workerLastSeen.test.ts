import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { WorkerOnMap } from '../../src/domain/inventory';
import type { WorkerNested } from '../../src/domain/workers';
import type { WorkerMap } from '../../src/streams/workerMapState';
import {
  asWorkerMap,
  followHelmet$,
  helmetHistoryRows,
  historyTime,
  lastSeenFloor,
  lastSeenMarker,
} from '../../src/views/workers/lastSeen';

const worker: WorkerNested = {
  id: 7,
  media_url: '/api/sites/1/workers/7/picture',
  name: 'Omar Haddad',
  site_id: 1,
  worker_tag_id: 'EMP-7',
  contact_number: '0501234567',
  helmet_color: 'orange',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  inventory_id: 40,
  inventory_assigned_at: '2026-01-02T00:00:00.000Z',
  worker_role_id: 1,
  subcontractor_id: null,
  WorkerRole: { name: 'Rigger' },
  Subcontractor: null,
  Inventory: {
    is_online: true,
    is_active: false,
    wnt_inventory_id: 'HLM-0040',
    Building: { name: 'North Block' },
    Floor: { name: 'Level 2' },
    Zone: { name: 'East wing' },
    last_seen: '2026-03-01T10:00:00.000Z',
    last_active_at: null,
    floor_id: 12,
    building_id: 3,
    zone_id: 99,
    coordinates: { lat: 25.2, long: 55.3 },
  },
  AssignedCrews: [],
  AssignedWorkshifts: [],
  HelmetHistory: [],
  crew_name: null,
  workshift_name: null,
};

const withInventory = (patch: Partial<NonNullable<WorkerNested['Inventory']>>): WorkerNested => ({
  ...worker,
  Inventory: { ...worker.Inventory!, ...patch },
});

describe('the worker page helpers', () => {
  it('turns the worker into one marker on its floor, or none without a position or helmet', () => {
    expect(lastSeenMarker(worker)).toMatchObject({
      id: 7,
      inventory_id: 40,
      wnt_inventory_id: 'HLM-0040',
      coordinates: { lat: 25.2, long: 55.3 },
      role_name: 'Rigger',
      subcontractor_name: null,
      zone_id: 99,
      zone_name: 'East wing',
      blueprint_id: 12,
      blueprint_name: 'Level 2',
      is_online: true,
      is_active: false,
    });
    expect(lastSeenFloor(worker)).toEqual({ floorId: 12, buildingId: 3 });
    expect(lastSeenMarker(withInventory({ coordinates: null }))).toBeNull();
    expect(lastSeenMarker(withInventory({ floor_id: null }))).toBeNull();
    expect(lastSeenFloor(withInventory({ floor_id: null, building_id: null }))).toBeNull();
    // A reply without the added fields (an older server) reads as "not placed".
    const { floor_id: _f, building_id: _b, zone_id: _z, coordinates: _c, ...spec } = worker.Inventory!;
    expect(lastSeenMarker({ ...worker, Inventory: spec })).toBeNull();
    const helmetless = { ...worker, inventory_id: null, Inventory: null };
    expect(lastSeenMarker(helmetless)).toBeNull();
    expect(lastSeenFloor(helmetless)).toBeNull();
  });

  it('lists the helmet history in the console language, the worn one without an end', () => {
    const rows = helmetHistoryRows(
      [
        {
          inventory_id: 2,
          wnt_inventory_id: 'HLM-2',
          assigned_at: '2026-03-05T08:30:00Z',
          unassigned_at: null,
        },
        {
          inventory_id: 1,
          wnt_inventory_id: 'HLM-1',
          assigned_at: '2026-01-05T08:30:00Z',
          unassigned_at: '2026-03-05T08:00:00Z',
        },
      ],
      'en',
    );
    expect(rows.map((r) => [r.helmet, r.to === null])).toEqual([
      ['HLM-2', true],
      ['HLM-1', false],
    ]);
    expect(rows[1].from).toMatch(/Jan 2026/);
    expect(rows[1].to).toMatch(/Mar 2026/);
    expect(historyTime('2026-03-05T12:00:00Z', 'ar')).toContain('مارس');
    expect(historyTime('not a time', 'en')).toBe('not a time');
  });

  it('follows the live floor for the helmet and reports when it leaves the floor', () => {
    const seed = lastSeenMarker(worker)!;
    const floor$ = new Subject<WorkerMap>();
    const seen: (WorkerOnMap | null)[] = [];
    const subscription = followHelmet$(seed, floor$).subscribe((m) => seen.push(m));
    expect(seen).toEqual([seed]);
    // Other helmets moving, this one not yet reported live: still the reply's position, no repeat.
    const other = { ...seed, inventory_id: 41 };
    floor$.next(asWorkerMap(other));
    expect(seen).toEqual([seed]);
    const moved = { ...seed, coordinates: { lat: 25.21, long: 55.31 }, zone_name: 'Fit-out area' };
    floor$.next(new Map([...asWorkerMap(other), ...asWorkerMap(moved)]));
    expect(seen.at(-1)).toBe(moved);
    floor$.next(asWorkerMap(other));
    expect(seen.at(-1)).toBeNull();
    subscription.unsubscribe();
  });

  it('draws nothing for no marker', () => {
    expect(asWorkerMap(null).size).toBe(0);
    expect([...asWorkerMap(lastSeenMarker(worker)).keys()]).toEqual([40]);
  });
});
