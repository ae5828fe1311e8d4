import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countEvacuation,
  type EvacuationFacts,
  type EvacuationRuleScope,
  type EvacuationWorkerRecord,
  isInEvacuatedArea,
  nextWorkerRecord,
  type StatusCause,
} from '../../src/domain/evacuationRules';

/**
 * The rules the wall screen must never break, over thousands of random histories: helmets
 * report positions (in or out of the evacuated area, in assembly or safe zones, before or after
 * the start), go offline, press acknowledge, and the service restarts (records go through JSON,
 * as through the database, and are recomputed with cause 'reconcile').
 */

const START = Date.parse('2025-03-01T08:00:00.000Z');
const WORKERS = 6;

// Floors 1–2 are evacuated, 3 is not; zones 10–11 are work zones, 20 the assembly zone, 30 the safe zone.
const EVACUATED = { floorIds: [1], zoneIds: [11] };
const RULES: EvacuationRuleScope = {
  startedAt: new Date(START).toISOString(),
  assemblyZoneIds: [20],
  safeZone: 30,
};
const SAFE_ZONES = new Set([20, 30]);

interface Helmet extends EvacuationFacts {
  floorId: number | null;
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
  | { kind: 'restart' };

const worker = fc.integer({ min: 0, max: WORKERS - 1 });
// Seconds from the start: some before it, most after.
const offset = fc.integer({ min: -300, max: 900 });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('position' as const),
      worker,
      floorId: fc.constantFrom(1, 2, 3),
      zoneId: fc.constantFrom(null, 10, 11, 20, 30),
      offset,
      online: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('offline' as const), worker }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('acknowledge' as const), worker, offset }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
);
const beforeStart = fc.array(
  fc.record({
    worker,
    floorId: fc.constantFrom(1, 2, 3),
    zoneId: fc.constantFrom(null, 10, 11, 20, 30),
    offset: fc.integer({ min: -600, max: -1 }),
    online: fc.boolean(),
  }),
  { maxLength: 10 },
);

const iso = (seconds: number) => new Date(START + seconds * 1000).toISOString();

function factsOf(helmet: Helmet): EvacuationFacts {
  const pressed = helmet.acks.filter((ts) => ts >= START).sort((a, b) => a - b);
  return {
    isOnline: helmet.isOnline,
    lastSeen: helmet.lastSeen,
    zoneId: helmet.zoneId,
    acknowledgedAt: pressed.length ? new Date(pressed[0]).toISOString() : null,
  };
}

function neverSeen(): Helmet {
  return { isOnline: false, lastSeen: null, zoneId: null, floorId: null, acknowledgedAt: null, acks: [] };
}

describe('evacuation rules over random histories', () => {
  it('keep counts, safety and restarts honest', () => {
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

        let records = new Map<number, EvacuationWorkerRecord>();
        let clock = START;
        const identity = (id: number) => ({ workerId: id + 1, inventoryItemId: id + 100 });
        // Whether each worker's latest position is one at or after the start in a safe place.
        const reachedSafety = (id: number) => {
          const h = helmets[id];
          return (
            h.lastSeen !== null &&
            Date.parse(h.lastSeen) >= START &&
            h.zoneId !== null &&
            SAFE_ZONES.has(h.zoneId)
          );
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
                isInEvacuatedArea(helmet, EVACUATED);
              if (!joins) continue;
            }
            const { record } = nextWorkerRecord(
              previous,
              identity(id),
              factsOf(helmet),
              RULES,
              new Date(clock).toISOString(),
              previous ? cause : 'joined',
            );
            records.set(id, record);
          }
        };

        // The start: every worn helmet whose floor or zone is in the area, online or not.
        for (const [id, helmet] of helmets.entries())
          if (isInEvacuatedArea(helmet, EVACUATED))
            records.set(
              id,
              nextWorkerRecord(null, identity(id), factsOf(helmet), RULES, RULES.startedAt, 'start').record,
            );

        const check = () => {
          const statuses = [...records.values()].map((r) => r.status);
          const counts = countEvacuation(statuses);
          expect(counts.included).toBe(records.size);
          expect(counts.safe + counts.manualAcknowledge + counts.autoAcknowledge + counts.offline).toBe(
            counts.included,
          );
          expect(counts.stillInside).toBe(counts.included - counts.safe);
          for (const [id, record] of records) {
            const helmet = helmets[id];
            if (record.status === 'safe') expect(reachedSafety(id)).toBe(true);
            if (!helmet.isOnline || helmet.lastSeen === null) expect(record.status).toBe('offline');
            if (record.safeAt !== null) expect(Date.parse(record.safeAt)).toBeGreaterThanOrEqual(START);
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
          } else {
            // The restart: what the database held, read back, recomputed from unchanged facts.
            const stored = JSON.parse(JSON.stringify([...records])) as [number, EvacuationWorkerRecord][];
            const restored = new Map(stored);
            for (const [id, record] of restored) {
              const { record: again, change } = nextWorkerRecord(
                record,
                identity(id),
                factsOf(helmets[id]),
                RULES,
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
    // 3,000 histories take ~2.5 s on a quiet core; the suite runs it beside the server files.
  }, 30_000);

  it('a position in an assembly zone from before the start never makes anyone safe', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3600 }), fc.boolean(), (secondsBefore, acknowledged) => {
        const facts: EvacuationFacts = {
          isOnline: true,
          lastSeen: iso(-secondsBefore),
          zoneId: 20,
          acknowledgedAt: acknowledged ? iso(5) : null,
        };
        const { record } = nextWorkerRecord(
          null,
          { workerId: 1, inventoryItemId: 1 },
          facts,
          RULES,
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
