import { describe, expect, it } from 'vitest';
import { EVACUATION_MESSAGES } from '../../src/domain/evacuation';
import { notSafeWorkers } from '../../src/domain/evacuationLocations';
import { evacuationStateOf } from '../../src/machines/evacuation.machine';
import {
  ASSEMBLY_ZONE,
  batchOf,
  ENDED_EVACUATION,
  EVACUATION,
  evacuee,
  expectCountsMatchList,
  FLOOR_ID,
  helmet,
  OTHER_FLOOR_ID,
  SCOPE,
  SESSION,
  SITE_ID,
  snapshotOf,
  startEvacuationMachine,
} from './helpers/evacuationHarness';

const S1 = { stream: 's1', seq: 0 };

/** A machine already showing a running evacuation of workers 1 (auto) and 2 (offline). */
function running() {
  const sut = startEvacuationMachine();
  sut.send({ type: 'connection.changed', state: 'live' });
  sut.send({
    type: 'evacuation.snapshot',
    snapshot: snapshotOf([evacuee(1, 'autoAcknowledge'), evacuee(2, 'offline')], S1),
  });
  return sut;
}

describe('the console’s evacuation machine', () => {
  it('asks for the evacuation once the socket is live, and waits idle when none runs', () => {
    const sut = startEvacuationMachine();
    expect(evacuationStateOf(sut.snapshot())).toBe('connecting');
    expect(sut.send({ type: 'connection.changed', state: 'live' })).toEqual([{ type: 'requestEvacuation' }]);
    sut.send({ type: 'evacuation.none' });
    expect(evacuationStateOf(sut.snapshot())).toBe('idle');
  });

  it('applies batches in sequence order and ignores a stale one', () => {
    const sut = running();
    sut.send({ type: 'evacuation.batch', batch: batchOf([evacuee(1, 'safe')], { stream: 's1', seq: 1 }) });
    expect(sut.statuses()).toEqual({ 1: 'safe', 2: 'offline' });
    // seq 1 again, delivered late: already applied, never undone.
    const stale = sut.send({
      type: 'evacuation.batch',
      batch: batchOf([evacuee(1, 'autoAcknowledge')], { stream: 's1', seq: 1 }),
    });
    expect(stale).toEqual([]);
    expect(sut.statuses()).toEqual({ 1: 'safe', 2: 'offline' });
    expect(sut.snapshot().matches({ inProgress: 'live' })).toBe(true);
    expectCountsMatchList(sut);
  });

  it('asks for a snapshot on a gap, holds what arrives meanwhile and replays it on top', () => {
    const sut = running();
    const gap = sut.send({
      type: 'evacuation.batch',
      batch: batchOf([evacuee(2, 'manualAcknowledge')], { stream: 's1', seq: 3 }),
    });
    expect(gap).toEqual([{ type: 'requestEvacuation' }]);
    expect(sut.snapshot().matches({ inProgress: 'resyncing' })).toBe(true);
    // Nothing of the held batch shows before the snapshot.
    expect(sut.statuses()).toEqual({ 1: 'autoAcknowledge', 2: 'offline' });
    sut.send({
      type: 'evacuation.snapshot',
      snapshot: snapshotOf([evacuee(1, 'safe'), evacuee(2, 'offline')], { stream: 's1', seq: 2 }),
    });
    expect(sut.snapshot().matches({ inProgress: 'live' })).toBe(true);
    expect(sut.statuses()).toEqual({ 1: 'safe', 2: 'manualAcknowledge' });
    expect(sut.snapshot().context.cursor).toEqual({ stream: 's1', seq: 3 });
    expectCountsMatchList(sut);
  });

  it('takes a batch of another stream (a restarted service) as a reason to resync', () => {
    const sut = running();
    const effects = sut.send({
      type: 'evacuation.batch',
      batch: batchOf([evacuee(1, 'safe')], { stream: 's2', seq: 1 }),
    });
    expect(effects).toEqual([{ type: 'requestEvacuation' }]);
    expect(sut.snapshot().matches({ inProgress: 'resyncing' })).toBe(true);
  });

  it('moves known workers with live locations and adds an unknown one only when online in the area', () => {
    const sut = running();
    const later = '2025-03-01T10:05:00.000Z';
    sut.send({
      type: 'location.update',
      workers: [
        helmet(1, { last_seen: later, zone_id: ASSEMBLY_ZONE, zone_name: 'Assembly' }),
        helmet(3, { last_seen: later, is_online: false }),
        helmet(4, { last_seen: later, blueprint_id: OTHER_FLOOR_ID, zone_id: null }),
        helmet(5, { last_seen: later }),
        helmet(6, { id: null, last_seen: later }),
      ],
    });
    const { workers } = sut.snapshot().context;
    expect(workers.get(1)).toMatchObject({ status: 'safe', zone_name: 'Assembly', safeAt: later });
    expect(workers.has(3)).toBe(false);
    expect(workers.has(4)).toBe(false);
    expect(workers.get(5)).toMatchObject({ status: 'autoAcknowledge', includedAt: later });
    expect([...workers.keys()].sort()).toEqual([1, 2, 5]);
    expectCountsMatchList(sut);
  });

  it('ignores a location older than what it knows', () => {
    const sut = running();
    sut.send({
      type: 'location.update',
      workers: [helmet(1, { last_seen: '2025-03-01T09:00:00.000Z', zone_id: ASSEMBLY_ZONE })],
    });
    expect(sut.statuses()[1]).toBe('autoAcknowledge');
  });

  it('starts only a valid scope, and only for a role that may write', () => {
    const viewer = startEvacuationMachine(false);
    viewer.send({ type: 'connection.changed', state: 'live' });
    viewer.send({ type: 'evacuation.none' });
    expect(viewer.snapshot().can({ type: 'evacuation.start', scope: SCOPE })).toBe(false);

    const sut = startEvacuationMachine();
    sut.send({ type: 'connection.changed', state: 'live' });
    sut.send({ type: 'evacuation.none' });
    expect(sut.snapshot().can({ type: 'evacuation.start', scope: { ...SCOPE, floorIds: [] } })).toBe(false);
    expect(sut.snapshot().can({ type: 'evacuation.start', scope: { ...SCOPE, assemblyZoneIds: [] } })).toBe(
      false,
    );
    expect(sut.send({ type: 'evacuation.start', scope: SCOPE })).toEqual([
      { type: 'requestStart', params: { siteId: SITE_ID, ...SCOPE } },
    ]);
    expect(sut.snapshot().hasTag('busy')).toBe(true);
    sut.send({ type: 'start.failed', message: EVACUATION_MESSAGES.alreadyRunning });
    expect(evacuationStateOf(sut.snapshot())).toBe('idle');
    expect(sut.snapshot().context.error).toBe(EVACUATION_MESSAGES.alreadyRunning);
  });

  it('after a start waits for the snapshot, holding batches that come first', () => {
    const sut = startEvacuationMachine();
    sut.send({ type: 'connection.changed', state: 'live' });
    sut.send({ type: 'evacuation.none' });
    sut.send({ type: 'evacuation.start', scope: SCOPE });
    expect(sut.send({ type: 'start.succeeded', evacuation: EVACUATION })).toEqual([
      { type: 'requestEvacuation' },
    ]);
    sut.send({ type: 'evacuation.batch', batch: batchOf([evacuee(1, 'safe')], { stream: 's1', seq: 1 }) });
    sut.send({ type: 'evacuation.snapshot', snapshot: snapshotOf([evacuee(1, 'autoAcknowledge')], S1) });
    expect(sut.statuses()).toEqual({ 1: 'safe' });
  });

  it('ends with a summary and clears the safety state, then reset returns to idle', () => {
    const sut = running();
    expect(sut.send({ type: 'evacuation.end' })).toEqual([
      { type: 'requestEnd', params: { siteId: SITE_ID, evacuationSessionId: SESSION } },
    ]);
    sut.send({ type: 'end.succeeded', evacuation: ENDED_EVACUATION });
    const { context } = sut.snapshot();
    expect(evacuationStateOf(sut.snapshot())).toBe('ended');
    expect(context.workers.size).toBe(0);
    expect(context.evacuation).toBeNull();
    expect(context.counts.included).toBe(0);
    expect(context.summary).toMatchObject({
      evacuationSessionId: SESSION,
      endedAt: ENDED_EVACUATION.endedAt,
      counts: { included: 2, autoAcknowledge: 1, offline: 1, stillInside: 2 },
    });
    expect(context.summary?.neverAccounted.map((w) => w.id)).toEqual([1, 2]);
    sut.send({ type: 'evacuation.reset' });
    expect(evacuationStateOf(sut.snapshot())).toBe('idle');
    expect(sut.snapshot().context.summary).toBeNull();
  });

  it('ignores the end of another session', () => {
    const sut = running();
    sut.send({
      type: 'evacuation.ended',
      ended: { siteId: SITE_ID, evacuationSessionId: 'other', endedAt: STARTED, endedBy: null },
    });
    expect(evacuationStateOf(sut.snapshot())).toBe('inProgress');
  });

  it('keeps the last list through a reconnect, then takes the snapshot or clears when it ended meanwhile', () => {
    const sut = running();
    sut.send({ type: 'connection.changed', state: 'reconnecting', reason: 'transport close' });
    expect(evacuationStateOf(sut.snapshot())).toBe('reconnecting');
    expect(sut.snapshot().context.workers.size).toBe(2);
    expect(sut.send({ type: 'connection.changed', state: 'live' })).toEqual([{ type: 'requestEvacuation' }]);
    sut.send({
      type: 'evacuation.snapshot',
      snapshot: snapshotOf([evacuee(1, 'safe'), evacuee(2, 'offline')], { stream: 's2', seq: 0 }),
    });
    expect(sut.statuses()).toEqual({ 1: 'safe', 2: 'offline' });

    sut.send({ type: 'connection.changed', state: 'reconnecting' });
    sut.send({ type: 'connection.changed', state: 'live' });
    sut.send({ type: 'evacuation.none' });
    expect(evacuationStateOf(sut.snapshot())).toBe('idle');
    expect(sut.snapshot().context.workers.size).toBe(0);
  });

  it('lists the not-yet-safe workers longest unseen first, never-seen ones on top', () => {
    const workers = new Map(
      [
        evacuee(1, 'autoAcknowledge', { last_seen: '2025-03-01T10:03:00.000Z' }),
        evacuee(2, 'safe', { last_seen: '2025-03-01T09:00:00.000Z' }),
        evacuee(3, 'offline', { last_seen: '2025-03-01T10:01:00.000Z' }),
        evacuee(4, 'offline', { last_seen: null }),
      ].map((w) => [w.id, w]),
    );
    expect(notSafeWorkers(workers).map((w) => w.id)).toEqual([4, 3, 1]);
    expect(FLOOR_ID).toBe(EVACUATION.floorIds[0]);
  });
});

const STARTED = EVACUATION.evacuationStartAt;
