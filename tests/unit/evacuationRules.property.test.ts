import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVACUATION_STATUSES } from '../../src/domain/evacuation';
import {
  countEvacuation,
  type EvacuationFacts,
  type EvacuationRuleScope,
  type EvacuationWorkerRecord,
  isInEvacuatedArea,
  nextWorkerRecord,
  redirectRecord,
  type StatusCause,
} from '../../src/domain/evacuationRules';
import { floorClearances } from '../../src/domain/floorClearance';

/**
 * The rules the wall screen must never break, over thousands of random histories: helmets
 * report positions (in or out of the evacuated area, in assembly or safe zones, before or after
 * the start), go offline, press acknowledge; marshals mark and unmark people; the area grows
 * (phased evacuation); an assembly zone is found unsafe and its people redirected; and the
 * service restarts (records go through JSON, as through the database, and are recomputed).
 */

const START = Date.parse('2025-03-01T08:00:00.000Z');
const WORKERS = 6;

// Floor 1 and zone 11 are evacuated at the start; floor 2 or zone 10 may be added later, floor 3 never.
// Zones 20 and 21 are assembly zones (either may be found unsafe), 30 is the safe zone.
const SAFE_ZONE = 30;

interface Helmet extends EvacuationFacts {
  acks: number[];
}

type Step =
  | {
      kind: 'position';
      worker: number;
      floorId: number;
      zoneId: number | null;
      offset: number;
      online: boolean;
    }
  | { kind: 'offline'; worker: number }
  | { kind: 'acknowledge'; worker: number; offset: number }
  | { kind: 'mark'; worker: number }
  | { kind: 'unmark'; worker: number }
  | { kind: 'addArea'; floorId: number | null; zoneId: number | null }
  | { kind: 'redirect'; unsafe: number; at: number }
  | { kind: 'restart' };

const worker = fc.integer({ min: 0, max: WORKERS - 1 });
// Seconds from the start: some before it, most after.
const offset = fc.integer({ min: -300, max: 900 });
const zone = fc.constantFrom(null, 10, 11, 20, 21, 30);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('position' as const),
      worker,
      floorId: fc.constantFrom(1, 2, 3),
      zoneId: zone,
      offset,
      online: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('offline' as const), worker }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('acknowledge' as const), worker, offset }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('mark' as const), worker }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unmark' as const), worker }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('addArea' as const),
      floorId: fc.constantFrom(null, 2),
      zoneId: fc.constantFrom(null, 10),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('redirect' as const),
      unsafe: fc.constantFrom(20, 21),
      at: fc.integer({ min: 0, max: 900 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
);
const beforeStart = fc.array(
  fc.record({
    worker,
    floorId: fc.constantFrom(1, 2, 3),
    zoneId: zone,
    offset: fc.integer({ min: -600, max: -1 }),
    online: fc.boolean(),
  }),
  { maxLength: 10 },
);

const iso = (seconds: number) => new Date(START + seconds * 1000).toISOString();

function neverSeen(): Helmet {
  return {
    isOnline: false,
    lastSeen: null,
    zoneId: null,
    floorId: null,
    acknowledgedAt: null,
    markedAt: null,
    acks: [],
  };
}

describe('evacuation rules over random histories', () => {
  it('keep counts, safety, marks, re-entries, redirects and restarts honest', () => {
    fc.assert(
      fc.property(beforeStart, fc.array(step, { minLength: 1, maxLength: 40 }), (earlier, steps) => {
        const helmets: Helmet[] = Array.from({ length: WORKERS }, neverSeen);
        for (const p of earlier)
          Object.assign(helmets[p.worker], {
            floorId: p.floorId,
            zoneId: p.zoneId,
            lastSeen: iso(p.offset),
            isOnline: p.online,
          });
        const rules: EvacuationRuleScope = {
          startedAt: iso(0),
          assemblyZoneIds: [20, 21],
          safeZone: SAFE_ZONE,
          floorIds: [1],
          zoneIds: [11],
        };
        let records = new Map<number, EvacuationWorkerRecord>();
        const marks = new Map<number, string>();
        // Whether the worker has had a position in a place that makes them safe, since the start
        // or their latest redirect: the only evidence 'safe' may rest on.
        const safeEvidence = new Set<number>();
        let clock = START;
        const identity = (id: number) => ({ workerId: id + 1, inventoryItemId: id + 100 });
        const factsOf = (id: number): EvacuationFacts => {
          const helmet = helmets[id];
          const pressed = helmet.acks.filter((ts) => ts >= START).sort((a, b) => a - b);
          return {
            ...helmet,
            acknowledgedAt: pressed.length ? new Date(pressed[0]).toISOString() : null,
            markedAt: marks.get(id) ?? null,
          };
        };
        const inSafePlaceNow = (id: number) => {
          const h = helmets[id];
          const record = records.get(id);
          if (h.lastSeen === null || h.zoneId === null || Date.parse(h.lastSeen) < START) return false;
          if (h.zoneId === SAFE_ZONE) return true;
          if (record?.redirectedAt)
            return (
              h.zoneId === record.redirectZoneId && Date.parse(h.lastSeen) >= Date.parse(record.redirectedAt)
            );
          return rules.assemblyZoneIds.includes(h.zoneId);
        };

        const evaluate = (ids: number[], cause: StatusCause) => {
          clock += 1000;
          for (const id of ids) {
            const previous = records.get(id) ?? null;
            const helmet = helmets[id];
            if (!previous) {
              const joins =
                helmet.isOnline &&
                helmet.lastSeen !== null &&
                Date.parse(helmet.lastSeen) >= START &&
                isInEvacuatedArea(helmet, rules);
              if (!joins) continue;
            }
            if (inSafePlaceNow(id)) safeEvidence.add(id);
            const { record } = nextWorkerRecord(
              previous,
              identity(id),
              factsOf(id),
              rules,
              new Date(clock).toISOString(),
              previous ? cause : 'joined',
            );
            records.set(id, record);
          }
        };
        const everyone = () => Array.from({ length: WORKERS }, (_, id) => id);

        // The start: every worn helmet whose floor or zone is in the area, online or not.
        for (const [id, helmet] of helmets.entries())
          if (isInEvacuatedArea(helmet, rules))
            records.set(
              id,
              nextWorkerRecord(null, identity(id), factsOf(id), rules, rules.startedAt, 'start').record,
            );

        const check = () => {
          const statuses = [...records.values()].map((r) => r.status);
          const counts = countEvacuation(statuses);
          expect(counts.included).toBe(records.size);
          expect(EVACUATION_STATUSES.reduce((sum, status) => sum + counts[status], 0)).toBe(counts.included);
          expect(counts.stillInside).toBe(counts.included - counts.safe - counts.marked);
          for (const [id, record] of records) {
            const helmet = helmets[id];
            const facts = factsOf(id);
            // Nobody is safe by helmet without an in-zone position after the start (or the redirect).
            if (record.status === 'safe') expect(safeEvidence.has(id)).toBe(true);
            if (record.safeAt !== null) expect(Date.parse(record.safeAt)).toBeGreaterThanOrEqual(START);
            // A mark never hides a later sighting inside the evacuated area.
            const sightedInsideAfterMark =
              facts.markedAt !== null &&
              helmet.isOnline &&
              helmet.lastSeen !== null &&
              Date.parse(helmet.lastSeen) > Date.parse(facts.markedAt) &&
              isInEvacuatedArea(helmet, rules) &&
              !inSafePlaceNow(id);
            if (sightedInsideAfterMark) expect(record.status).toBe('reEntered');
            if (record.status === 'marked') expect(facts.markedAt).not.toBeNull();
            if (!helmet.isOnline || helmet.lastSeen === null)
              expect(['offline', 'offlineBeforeAlarm', 'marked']).toContain(record.status);
          }
          // Floors: one that reports clear has nobody who started on it still unaccounted for on it.
          for (const clearance of floorClearances([1, 2], [...records.values()], rules.startedAt)) {
            const holding = [...records.values()].filter(
              (r) =>
                r.originFloorId === clearance.floorId &&
                r.leftFloorAt === null &&
                r.status !== 'safe' &&
                r.status !== 'marked',
            );
            expect(clearance.remaining).toBe(holding.length);
            expect(clearance.clearedAt === null).toBe(holding.length > 0);
          }
        };
        check();

        for (const s of steps) {
          const before = new Set(records.keys());
          if (s.kind === 'position') {
            Object.assign(helmets[s.worker], {
              floorId: s.floorId,
              zoneId: s.zoneId,
              lastSeen: iso(s.offset),
              isOnline: s.online,
            });
            evaluate([s.worker], 'position');
          } else if (s.kind === 'offline') {
            helmets[s.worker].isOnline = false;
            evaluate([s.worker], 'offline');
          } else if (s.kind === 'acknowledge') {
            helmets[s.worker].acks.push(START + s.offset * 1000);
            evaluate([s.worker], 'acknowledge');
          } else if (s.kind === 'mark') {
            if (!records.has(s.worker)) continue;
            marks.set(s.worker, new Date(clock + 1000).toISOString());
            evaluate([s.worker], 'mark');
          } else if (s.kind === 'unmark') {
            marks.delete(s.worker);
            evaluate([s.worker], 'unmark');
          } else if (s.kind === 'addArea') {
            if (s.floorId !== null && !rules.floorIds.includes(s.floorId))
              rules.floorIds = [...rules.floorIds, s.floorId];
            if (s.zoneId !== null && !rules.zoneIds.includes(s.zoneId))
              rules.zoneIds = [...rules.zoneIds, s.zoneId];
            evaluate(everyone(), 'position');
          } else if (s.kind === 'redirect') {
            if (!rules.assemblyZoneIds.includes(s.unsafe)) continue;
            const to = s.unsafe === 20 ? 21 : 20;
            rules.assemblyZoneIds = [to];
            // The redirect comes some time into the evacuation: positions reported before it are stale for it.
            clock = Math.max(clock + 1000, START + s.at * 1000);
            for (const [id, record] of records)
              if (helmets[id].zoneId === s.unsafe || record.redirectZoneId === s.unsafe) {
                records.set(id, redirectRecord(record, to, new Date(clock).toISOString()));
                safeEvidence.delete(id);
              }
            evaluate([...records.keys()], 'redirect');
          } else {
            // The restart: what the database held, read back, recomputed from unchanged facts.
            const stored = JSON.parse(JSON.stringify([...records])) as [number, EvacuationWorkerRecord][];
            const restored = new Map(stored);
            for (const [id, record] of restored) {
              const { record: again, change } = nextWorkerRecord(
                record,
                identity(id),
                factsOf(id),
                rules,
                new Date(clock + 1000).toISOString(),
                'reconcile',
              );
              expect(change).toBeNull();
              expect(again.status).toBe(records.get(id)?.status);
            }
            records = restored;
          }
          // Included workers are never removed.
          for (const id of before) expect(records.has(id)).toBe(true);
          check();
        }
      }),
      { numRuns: 3000 },
    );
    // 3,000 histories take a few seconds on a quiet core; the suite runs it beside the server files.
  }, 60_000);

  it('a position in an assembly zone from before the start never makes anyone safe', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3600 }), fc.boolean(), (secondsBefore, acknowledged) => {
        const facts: EvacuationFacts = {
          isOnline: true,
          lastSeen: iso(-secondsBefore),
          floorId: 1,
          zoneId: 20,
          acknowledgedAt: acknowledged ? iso(5) : null,
          markedAt: null,
        };
        const rules: EvacuationRuleScope = {
          startedAt: iso(0),
          assemblyZoneIds: [20],
          safeZone: SAFE_ZONE,
          floorIds: [1],
          zoneIds: [],
        };
        const { record } = nextWorkerRecord(
          null,
          { workerId: 1, inventoryItemId: 1 },
          facts,
          rules,
          iso(10),
          'start',
        );
        expect(record.status).toBe(acknowledged ? 'manualAcknowledge' : 'autoAcknowledge');
        expect(record.safeAt).toBeNull();
      }),
      { numRuns: 500 },
    );
  });
});
