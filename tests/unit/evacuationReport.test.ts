import { describe, expect, it } from 'vitest';
import type { Evacuation } from '../../src/domain/evacuation';
import { buildEvacuationReport } from '../../src/domain/evacuationReport';
import type { EvacuationWorkerRecord, StatusChange } from '../../src/domain/evacuationRules';

const START = '2025-03-01T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(START) + seconds * 1000).toISOString();

function evacuation(overrides: Partial<Evacuation> = {}): Evacuation {
  return {
    evacuationSessionId: 'session-1',
    siteId: 7,
    evacuationStartAt: START,
    floorIds: [1],
    zoneIds: [],
    assemblyZoneIds: [9],
    safeZone: null,
    gateWayId: null,
    evacuationFloorsIds: [1],
    unsafeAssemblyZoneIds: [],
    safetyEvents: [],
    started: false,
    endedAt: at(600),
    startedBy: { id: 1, name: 'Officer Lina' },
    endedBy: { id: 2, name: 'Officer Omar' },
    ...overrides,
  };
}

function record(workerId: number, overrides: Partial<EvacuationWorkerRecord> = {}): EvacuationWorkerRecord {
  return {
    workerId,
    inventoryItemId: 100 + workerId,
    status: 'autoAcknowledge',
    includedAt: START,
    statusChangedAt: START,
    safeAt: null,
    acknowledgedAt: null,
    accountedAt: null,
    originFloorId: 1,
    leftFloorAt: null,
    redirectedAt: null,
    redirectZoneId: null,
    ...overrides,
  };
}

const change = (workerId: number, from: StatusChange['from'], to: StatusChange['to'], seconds: number) =>
  ({ workerId, from, to, at: at(seconds), cause: 'position' }) satisfies StatusChange;

const names = new Map([
  [1, { name: 'Amal Haddad', wntInventoryId: 'H-1' }],
  [2, { name: 'Bilal Nasser', wntInventoryId: 'H-2' }],
  [3, { name: 'Carla Diaz', wntInventoryId: 'H-3' }],
]);

describe('evacuation report', () => {
  it('gives each worker the time to safety and the time everyone was accounted for', () => {
    const report = buildEvacuationReport(
      evacuation(),
      [
        record(2, { status: 'safe', safeAt: at(95), accountedAt: at(40), acknowledgedAt: at(40) }),
        record(1, { status: 'safe', safeAt: at(120), accountedAt: at(120) }),
        record(3, { status: 'manualAcknowledge', acknowledgedAt: at(300), accountedAt: at(300) }),
      ],
      [
        change(1, null, 'autoAcknowledge', 0),
        change(1, 'autoAcknowledge', 'safe', 120),
        change(2, null, 'autoAcknowledge', 0),
        change(2, 'autoAcknowledge', 'manualAcknowledge', 40),
        change(2, 'manualAcknowledge', 'safe', 95),
        change(3, null, 'autoAcknowledge', 0),
        change(3, 'autoAcknowledge', 'manualAcknowledge', 300),
      ],
      names,
    );
    expect(report.workers.map((w) => [w.name, w.timeToSafetySeconds, w.timeToAccountedSeconds])).toEqual([
      ['Amal Haddad', 120, 120],
      ['Bilal Nasser', 95, 40],
      ['Carla Diaz', null, 300],
    ]);
    expect(report.workers[1]).toMatchObject({ statusChanges: 3, finalStatus: 'safe', wntInventoryId: 'H-2' });
    expect(report.allAccountedAt).toBe(at(300));
    expect(report.timeUntilAllAccountedSeconds).toBe(300);
    expect(report.neverAccounted).toEqual([]);
    expect(report.durationSeconds).toBe(600);
    expect(report.startedBy).toBe('Officer Lina');
    expect(report.endedBy).toBe('Officer Omar');
    expect(report.countsAtEnd).toMatchObject({
      included: 3,
      safe: 2,
      manualAcknowledge: 1,
      autoAcknowledge: 0,
      offline: 0,
      stillInside: 1,
    });
  });

  it('lists the workers never accounted for and then has no time for everyone', () => {
    const report = buildEvacuationReport(
      evacuation(),
      [
        record(1, { status: 'safe', safeAt: at(60), accountedAt: at(60) }),
        record(2, { status: 'offline' }),
        record(3, { status: 'autoAcknowledge', includedAt: at(200) }),
      ],
      [change(2, 'autoAcknowledge', 'offline', 30)],
      names,
    );
    expect(report.neverAccounted.map((w) => w.name)).toEqual(['Bilal Nasser', 'Carla Diaz']);
    expect(report.allAccountedAt).toBeNull();
    expect(report.timeUntilAllAccountedSeconds).toBeNull();
    expect(report.countsAtEnd).toMatchObject({ included: 3, safe: 1, offline: 1, autoAcknowledge: 1 });
    expect(report.workers.find((w) => w.workerId === 3)?.includedAt).toBe(at(200));
  });

  it('takes the status at the end, ignoring changes stored after it', () => {
    const report = buildEvacuationReport(
      evacuation({ endedAt: at(100) }),
      [record(1, { status: 'safe', safeAt: at(150), accountedAt: at(150) })],
      [change(1, null, 'autoAcknowledge', 0), change(1, 'autoAcknowledge', 'safe', 150)],
    );
    expect(report.workers[0].finalStatus).toBe('autoAcknowledge');
    expect(report.workers[0].statusChanges).toBe(1);
    expect(report.countsAtEnd.stillInside).toBe(1);
  });

  it('finds safety in the status events when the row lacks it', () => {
    const report = buildEvacuationReport(
      evacuation(),
      [record(1, { status: 'offline' })],
      [change(1, 'autoAcknowledge', 'safe', 75), change(1, 'safe', 'offline', 90)],
    );
    expect(report.workers[0]).toMatchObject({
      safeAt: at(75),
      timeToSafetySeconds: 75,
      accountedAt: at(75),
      finalStatus: 'offline',
    });
    expect(report.timeUntilAllAccountedSeconds).toBe(75);
  });

  it('has everyone accounted for at the start when nobody was included, and no duration while running', () => {
    const report = buildEvacuationReport(evacuation({ endedAt: null, started: true }), [], []);
    expect(report.timeUntilAllAccountedSeconds).toBe(0);
    expect(report.durationSeconds).toBeNull();
    expect(report.countsAtEnd.included).toBe(0);
  });
});
