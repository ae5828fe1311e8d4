import { Subject, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { WorkerOnMap } from '../../src/domain/inventory';
import type { LiveSnapshot, LocationUpdate } from '../../src/domain/live';
import { floorWorkers$ } from '../../src/streams/floorWorkers.stream';
import type { LiveEvent } from '../../src/streams/liveEvent';
import { onlineActiveByFloor } from '../../src/streams/onlineActiveByFloor';
import { polledWorkers$ } from '../../src/streams/polledWorkers.stream';
import type { PolledWorkers, WorkerMap } from '../../src/streams/workerMapState';

const FLOOR = 7;

function helmet(inventoryId: number, overrides: Partial<WorkerOnMap> = {}): WorkerOnMap {
  return {
    id: inventoryId + 1000,
    inventory_id: inventoryId,
    wnt_inventory_id: `H-${inventoryId}`,
    coordinates: { lat: 25.2, long: 55.27 },
    name: `Worker ${inventoryId}`,
    worker_tag_id: `T${inventoryId}`,
    contact_number: null,
    role_name: 'Rigger',
    subcontractor_name: null,
    last_seen: '2026-05-01T10:00:00.000Z',
    is_online: true,
    is_active: true,
    profile_picture_path: null,
    helmet_color: null,
    zone_id: null,
    zone_name: null,
    blueprint_id: FLOOR,
    blueprint_name: 'Level 7',
    ...overrides,
  };
}

const snapshotOf = (workers: WorkerOnMap[], seq = 0, stream = 's1'): LiveSnapshot => ({
  stream,
  seq,
  siteId: 1,
  floorId: FLOOR,
  workers,
  at: '2026-05-01T10:00:00.000Z',
});

const updateOf = (seq: number, workers: WorkerOnMap[], stream = 's1'): LocationUpdate => ({
  stream,
  seq,
  siteId: 1,
  floorId: FLOOR,
  workers,
});

/** A floor stream over Subjects, with every emitted map and every snapshot request recorded. */
function setup(floorId: number | null = FLOOR) {
  const live = new Subject<LiveEvent>();
  const poll = new Subject<PolledWorkers>();
  const answers = new Subject<LiveSnapshot>();
  const clock = new VirtualTimeScheduler();
  let requests = 0;
  const maps: WorkerMap[] = [];
  floorWorkers$({
    floorId,
    live$: live,
    poll$: poll,
    scheduler: clock,
    requestSnapshot: () => {
      requests++;
      return answers;
    },
  }).subscribe((map) => maps.push(map));
  return {
    snapshot: (s: LiveSnapshot) => live.next({ type: 'snapshot', snapshot: s }),
    update: (u: LocationUpdate) => live.next({ type: 'update', update: u }),
    poll: (workers: WorkerOnMap[], requestedAt: number) => poll.next({ workers, requestedAt }),
    answer: (s: LiveSnapshot) => answers.next(s),
    at: (ms: number) => {
      clock.frame = ms;
    },
    requests: () => requests,
    maps,
    latest: () => maps.at(-1),
    ids: () => [...(maps.at(-1)?.keys() ?? [])].sort((a, b) => a - b),
  };
}

describe('floorWorkers$: the socket and the poll as one map per floor', () => {
  it('starts from the snapshot, then applies each next update in order', () => {
    const s = setup();
    s.snapshot(snapshotOf([helmet(1), helmet(2, { is_online: false })], 4));
    expect(s.ids()).toEqual([1, 2]);
    s.update(updateOf(5, [helmet(1, { coordinates: { lat: 25.3, long: 55.28 }, is_active: false })]));
    expect(s.latest()?.get(1)?.coordinates).toEqual({ lat: 25.3, long: 55.28 });
    expect(s.latest()?.get(1)?.is_active).toBe(false);
    s.update(updateOf(6, [helmet(2, { is_online: true })]));
    expect(s.latest()?.get(2)?.is_online).toBe(true);
    expect(s.maps).toHaveLength(3);
    expect(s.requests()).toBe(0);
  });

  it('ignores an update it has already seen', () => {
    const s = setup();
    s.snapshot(snapshotOf([helmet(1)], 4));
    s.update(updateOf(4, [helmet(1, { is_online: false })]));
    s.update(updateOf(2, [helmet(3)]));
    expect(s.maps).toHaveLength(1);
    expect(s.latest()?.get(1)?.is_online).toBe(true);
  });

  it('asks for a snapshot on a gap, holds updates meanwhile and replays the newer ones on top', () => {
    const s = setup();
    s.snapshot(snapshotOf([helmet(1)], 1));
    s.update(updateOf(3, [helmet(2)]));
    expect(s.requests()).toBe(1);
    expect(s.ids()).toEqual([1]);
    s.update(updateOf(11, [helmet(4)]));
    expect(s.requests()).toBe(1);
    // The server's state at 10 replaces ours (helmet 1 is gone); 11 follows it.
    s.answer(snapshotOf([helmet(2), helmet(3)], 10));
    expect(s.ids()).toEqual([2, 3, 4]);
    s.update(updateOf(12, [helmet(5)]));
    expect(s.ids()).toEqual([2, 3, 4, 5]);
  });

  it('asks for a snapshot when updates come from another stream (the server restarted)', () => {
    const s = setup();
    s.snapshot(snapshotOf([helmet(1)], 8, 'before'));
    s.update(updateOf(1, [helmet(2)], 'after'));
    expect(s.requests()).toBe(1);
    expect(s.ids()).toEqual([1]);
    s.answer(snapshotOf([helmet(2)], 1, 'after'));
    expect(s.ids()).toEqual([2]);
    s.update(updateOf(2, [helmet(3)], 'after'));
    expect(s.ids()).toEqual([2, 3]);
  });

  it('asks for a snapshot when an update comes before any', () => {
    const s = setup();
    s.update(updateOf(1, [helmet(1)]));
    expect(s.requests()).toBe(1);
    expect(s.maps).toHaveLength(0);
  });

  it('asks again on the next gap when a snapshot request failed', () => {
    const live = new Subject<LiveEvent>();
    let requests = 0;
    const maps: WorkerMap[] = [];
    floorWorkers$({
      floorId: FLOOR,
      live$: live,
      requestSnapshot: () => {
        requests++;
        return Promise.reject(new Error('timeout'));
      },
    }).subscribe((m) => maps.push(m));
    live.next({ type: 'update', update: updateOf(1, [helmet(1)]) });
    return Promise.resolve().then(() => {
      live.next({ type: 'update', update: updateOf(2, [helmet(1)]) });
      expect(requests).toBe(2);
      expect(maps).toHaveLength(0);
    });
  });

  it('adds an unknown helmet from an update only when it is online', () => {
    const s = setup();
    s.snapshot(snapshotOf([helmet(1)], 0));
    s.update(updateOf(1, [helmet(2, { is_online: false })]));
    expect(s.ids()).toEqual([1]);
    s.update(updateOf(2, [helmet(3, { is_online: true, is_active: false })]));
    expect(s.ids()).toEqual([1, 3]);
  });

  it('removes a helmet that moved to another floor, and ignores one that was never here', () => {
    const s = setup();
    s.snapshot(snapshotOf([helmet(1), helmet(2), helmet(9, { blueprint_id: 8 })], 0));
    expect(s.ids()).toEqual([1, 2]);
    s.update(updateOf(1, [helmet(1, { blueprint_id: 8 }), helmet(5, { blueprint_id: 8 })]));
    expect(s.ids()).toEqual([2]);
  });

  it('keeps every floor of the site when no floor is given', () => {
    const s = setup(null);
    s.snapshot(snapshotOf([helmet(1), helmet(2, { blueprint_id: 8 })], 0));
    s.update(updateOf(1, [helmet(1, { blueprint_id: 9 })]));
    expect(s.ids()).toEqual([1, 2]);
    expect(s.latest()?.get(1)?.blueprint_id).toBe(9);
  });

  it('merges the poll: newer sightings win, online strangers join, the missing go only if the poll is newer', () => {
    const s = setup();
    s.at(1000);
    s.snapshot(snapshotOf([helmet(1, { last_seen: '2026-05-01T10:00:05.000Z' }), helmet(2), helmet(3)], 0));
    // Sent before the snapshot arrived: fresher sightings still count, but it removes nothing.
    s.poll(
      [
        helmet(1, { last_seen: '2026-05-01T10:00:01.000Z', is_online: false }),
        helmet(2, { last_seen: '2026-05-01T10:00:09.000Z', coordinates: { lat: 25.25, long: 55.25 } }),
        helmet(4, { is_online: true }),
        helmet(5, { is_online: false }),
      ],
      900,
    );
    expect(s.ids()).toEqual([1, 2, 3, 4]);
    expect(s.latest()?.get(1)?.is_online).toBe(true);
    expect(s.latest()?.get(2)?.coordinates).toEqual({ lat: 25.25, long: 55.25 });
    // Sent after the last live data: helmets it no longer lists have left the floor.
    s.poll([helmet(2, { last_seen: '2026-05-01T10:00:09.000Z' })], 1500);
    expect(s.ids()).toEqual([2]);
  });

  it('emits nothing for a poll that changes nothing', () => {
    const s = setup();
    s.snapshot(snapshotOf([helmet(1)], 0));
    s.poll([helmet(1)], Number.NEGATIVE_INFINITY);
    expect(s.maps).toHaveLength(1);
  });
});

describe('polledWorkers$', () => {
  it('fetches now and every period, abandoning a request still running when the next starts', async () => {
    const clock = new VirtualTimeScheduler(undefined, 350);
    const calls: { at: number; signal: AbortSignal }[] = [];
    const results: PolledWorkers[] = [];
    polledWorkers$(
      (signal) => {
        calls.push({ at: clock.now(), signal });
        return Promise.resolve([helmet(calls.length)]);
      },
      100,
      clock,
    ).subscribe((r) => results.push(r));
    clock.flush();
    expect(calls.map((c) => c.at)).toEqual([0, 100, 200, 300]);
    expect(calls.map((c) => c.signal.aborted)).toEqual([true, true, true, false]);
    await Promise.resolve();
    await Promise.resolve();
    expect(results).toEqual([{ workers: [helmet(4)], requestedAt: 300 }]);
  });

  it('skips a failed poll and keeps polling', async () => {
    const results: PolledWorkers[] = [];
    let call = 0;
    const subscription = polledWorkers$(async () => {
      call++;
      if (call === 1) throw new Error('offline');
      return [helmet(call)];
    }, 5).subscribe((r) => results.push(r));
    await new Promise((resolve) => setTimeout(resolve, 40));
    subscription.unsubscribe();
    expect(call).toBeGreaterThanOrEqual(3);
    expect(results.length).toBe(call - 1);
    expect(results[0].workers[0].inventory_id).toBe(2);
    expect(results[0].requestedAt).toBeLessThanOrEqual(Date.now());
  });
});

describe('onlineActiveByFloor', () => {
  it('counts online and active helmets per floor, worn or not', () => {
    const counts = onlineActiveByFloor([
      helmet(1),
      helmet(2, { id: null, name: null }),
      helmet(3, { is_active: false }),
      helmet(4, { is_online: false }),
      helmet(5, { blueprint_id: 8 }),
      helmet(6, { blueprint_id: null }),
    ]);
    expect(Object.fromEntries(counts)).toEqual({ [FLOOR]: 2, 8: 1 });
  });
});
