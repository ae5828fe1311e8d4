import { describe, expect, it } from 'vitest';
import {
  type DrillRoll,
  type DrillSession,
  drillFigures,
  musterTimes,
  percentile,
} from '../../src/domain/drillFigures';
import type { EvacuationWorkerRecord, StatusChange } from '../../src/domain/evacuationRules';

const START = '2025-03-01T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(START) + seconds * 1000).toISOString();

const session = (overrides: Partial<DrillSession> = {}): DrillSession => ({
  startedAt: START,
  endedAt: at(600),
  evacuationFloorsIds: [1, 2],
  ...overrides,
});

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

/** A worker's changes as [to, seconds] pairs, the first from nobody. */
function changes(workerId: number, steps: [StatusChange['to'], number][]): StatusChange[] {
  return steps.map(([to, seconds], index) => ({
    workerId,
    from: index === 0 ? null : steps[index - 1][0],
    to,
    at: at(seconds),
    cause: index === 0 ? 'start' : 'position',
  }));
}

describe('drill figures', () => {
  // Five helmets and one person added without a helmet, over floors 1 and 2, ended at 600 s.
  const records = [
    record(1, { status: 'safe', statusChangedAt: at(60), leftFloorAt: at(30) }),
    record(2, { status: 'safe', statusChangedAt: at(100), leftFloorAt: at(80) }),
    record(3, { status: 'marked', statusChangedAt: at(200), originFloorId: 2 }),
    // Joined at 50 s, safe at 170 s, back inside at 250 s, safe again at 300 s.
    record(4, {
      status: 'safe',
      includedAt: at(50),
      statusChangedAt: at(300),
      originFloorId: 2,
      leftFloorAt: at(150),
    }),
    record(5, { status: 'offline', statusChangedAt: at(40), originFloorId: 2 }),
  ];
  const events = [
    ...changes(1, [
      ['autoAcknowledge', 0],
      ['safe', 60],
    ]),
    // Pressing the button is not mustering: only safe or marked is.
    ...changes(2, [
      ['autoAcknowledge', 0],
      ['manualAcknowledge', 20],
      ['safe', 100],
    ]),
    ...changes(3, [
      ['offline', 0],
      ['marked', 200],
    ]),
    ...changes(4, [
      ['autoAcknowledge', 50],
      ['safe', 170],
      ['reEntered', 250],
      ['safe', 300],
    ]),
    // Safe only after the end: never, for the report.
    ...changes(5, [
      ['autoAcknowledge', 0],
      ['offline', 40],
      ['safe', 700],
    ]),
  ];
  const roll: DrillRoll = {
    rollPeople: [{ id: 9, addedAt: at(220) }],
    marks: [
      { workerId: 3, rollPersonId: null, markedAt: at(200), undoneAt: null },
      { workerId: null, rollPersonId: 9, markedAt: at(220), undoneAt: at(230) },
      { workerId: null, rollPersonId: 9, markedAt: at(240), undoneAt: null },
      // After the end: not this drill's.
      { workerId: 5, rollPersonId: null, markedAt: at(700), undoneAt: null },
    ],
    alarms: [
      { inventoryItemId: 101, sentAt: at(0), deliveredAt: at(2) },
      // Resent and confirmed the second time.
      { inventoryItemId: 102, sentAt: at(0), deliveredAt: null },
      { inventoryItemId: 102, sentAt: at(30), deliveredAt: at(31) },
      // Confirmed, then a redirect that never was.
      { inventoryItemId: 103, sentAt: at(0), deliveredAt: at(1) },
      { inventoryItemId: 103, sentAt: at(100), deliveredAt: null },
      // 104 was never sent one; 105 never confirmed.
      { inventoryItemId: 105, sentAt: at(0), deliveredAt: null },
    ],
  };

  it('times each worker from inclusion to first safe or marked', () => {
    expect([...musterTimes(session(), records, events)]).toEqual([
      [1, 60],
      [2, 100],
      [3, 200],
      [4, 120],
      [5, null],
    ]);
  });

  it('gives median, 90th percentile and maximum, the shares of the roll over time, floors, alarms and marks', () => {
    expect(drillFigures(session(), records, events, roll)).toEqual({
      rollSize: 6,
      mustered: 4,
      // 60, 100, 120, 200: median between 100 and 120; p90 at rank 2.7, 120 + 0.7 × 80.
      medianSecondsToMuster: 110,
      p90SecondsToMuster: 176,
      maxSecondsToMuster: 200,
      // 3 of 6 at 170 s (workers 1, 2, 4); never 6 of 6, worker 5 being lost.
      secondsTo50Percent: 170,
      secondsTo90Percent: null,
      secondsTo100Percent: null,
      floorsCleared: [
        { floorId: 1, clearedAfterSeconds: 80, remaining: 0 },
        { floorId: 2, clearedAfterSeconds: null, remaining: 1 },
      ],
      alarmsSent: 6,
      alarmsUndelivered: 3,
      marksMade: 3,
      marksUndone: 1,
      reEntries: 1,
    });
  });

  it('reaches 50, 90 and 100 % of a roll of ten at the fifth, ninth and tenth', () => {
    const ten = Array.from({ length: 10 }, (_, i) => record(i + 1, { status: 'safe' }));
    const walked = ten.flatMap((r) =>
      changes(r.workerId, [
        ['autoAcknowledge', 0],
        ['safe', r.workerId * 10],
      ]),
    );
    const figures = drillFigures(session({ evacuationFloorsIds: [] }), ten, walked);
    expect(figures).toMatchObject({
      rollSize: 10,
      medianSecondsToMuster: 55,
      // rank 8.1 between 90 and 100.
      p90SecondsToMuster: 91,
      maxSecondsToMuster: 100,
      secondsTo50Percent: 50,
      secondsTo90Percent: 90,
      secondsTo100Percent: 100,
    });
  });

  it('counts a share only while it holds: a re-entry takes a worker off again', () => {
    const two = [record(1), record(2)];
    const walked = [
      ...changes(1, [
        ['autoAcknowledge', 0],
        ['safe', 10],
        ['reEntered', 20],
        ['safe', 50],
      ]),
      ...changes(2, [
        ['autoAcknowledge', 0],
        ['safe', 30],
      ]),
    ];
    const figures = drillFigures(session({ evacuationFloorsIds: [] }), two, walked);
    expect(figures.secondsTo50Percent).toBe(10);
    expect(figures.secondsTo100Percent).toBe(50);
    expect(figures.reEntries).toBe(1);
  });

  it('with nobody included has nothing to time, and floors clear from the start', () => {
    expect(drillFigures(session({ evacuationFloorsIds: [1] }), [], [])).toEqual({
      rollSize: 0,
      mustered: 0,
      medianSecondsToMuster: null,
      p90SecondsToMuster: null,
      maxSecondsToMuster: null,
      secondsTo50Percent: null,
      secondsTo90Percent: null,
      secondsTo100Percent: null,
      floorsCleared: [{ floorId: 1, clearedAfterSeconds: 0, remaining: 0 }],
      alarmsSent: 0,
      alarmsUndelivered: 0,
      marksMade: 0,
      marksUndone: 0,
      reEntries: 0,
    });
  });

  it('with nobody accounted for gives no times, and every helmet counts as undelivered without alarms', () => {
    const lost = [record(1, { status: 'offline' }), record(2, { status: 'offline' })];
    const walked = [
      ...changes(1, [
        ['autoAcknowledge', 0],
        ['offline', 5],
      ]),
      ...changes(2, [['offline', 0]]),
    ];
    const figures = drillFigures(session({ evacuationFloorsIds: [1] }), lost, walked);
    expect(figures).toMatchObject({
      rollSize: 2,
      mustered: 0,
      medianSecondsToMuster: null,
      p90SecondsToMuster: null,
      maxSecondsToMuster: null,
      secondsTo50Percent: null,
      secondsTo100Percent: null,
      floorsCleared: [{ floorId: 1, clearedAfterSeconds: null, remaining: 2 }],
      alarmsUndelivered: 2,
    });
  });

  it('with one person, every figure is that person’s time', () => {
    const one = [record(1, { status: 'safe', statusChangedAt: at(45) })];
    const walked = changes(1, [
      ['autoAcknowledge', 0],
      ['safe', 45],
    ]);
    expect(drillFigures(session({ evacuationFloorsIds: [1] }), one, walked)).toMatchObject({
      rollSize: 1,
      medianSecondsToMuster: 45,
      p90SecondsToMuster: 45,
      maxSecondsToMuster: 45,
      secondsTo50Percent: 45,
      secondsTo90Percent: 45,
      secondsTo100Percent: 45,
      floorsCleared: [{ floorId: 1, clearedAfterSeconds: 45, remaining: 0 }],
    });
  });

  it('times a redirected worker to the new muster point; one marked through the redirect mustered at it', () => {
    const redirected = [
      record(1, { status: 'safe', redirectedAt: at(100) }),
      record(2, { status: 'marked', redirectedAt: at(100) }),
    ];
    const walked = [
      ...changes(1, [
        ['autoAcknowledge', 0],
        ['safe', 60],
        ['autoAcknowledge', 100],
        ['safe', 160],
      ]),
      ...changes(2, [
        ['autoAcknowledge', 0],
        ['marked', 50],
      ]),
    ];
    expect([...musterTimes(session(), redirected, walked)]).toEqual([
      [1, 160],
      [2, 100],
    ]);
  });

  it('a worker with no stored change is judged by their record', () => {
    const quiet = [record(1, { status: 'safe', statusChangedAt: at(75) })];
    expect([...musterTimes(session(), quiet, [])]).toEqual([[1, 75]]);
  });

  it('interpolates percentiles between closest ranks', () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([7], 90)).toBe(7);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentile([10, 20, 30], 90)).toBe(28);
  });
});
