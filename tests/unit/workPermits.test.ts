import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FloorCorners, LongLat } from '../../src/domain/floor';
import { type GridAxes, gridAxesProblems, gridReference } from '../../src/domain/gridFields';
import {
  areaCentre,
  canChangeStatus,
  enteredPermitAreas,
  holderProblem,
  isHolder,
  isInForce,
  PERMIT_STATUSES,
  type PermitRule,
  permitsAt,
  validityProblems,
} from '../../src/domain/workPermits';

const T0 = Date.parse('2026-03-01T08:00:00Z');
const HOUR = 3_600_000;
const square: LongLat[] = [
  [55.3, 25.2],
  [55.301, 25.2],
  [55.301, 25.199],
  [55.3, 25.199],
];
const inside: LongLat = [55.3005, 25.1995];
const outside: LongLat = [55.302, 25.1995];

function permit(overrides: Partial<PermitRule> = {}): PermitRule {
  return {
    id: 1,
    floorId: 7,
    type: 'hotWork',
    status: 'active',
    validFromMs: T0,
    validToMs: T0 + 8 * HOUR,
    area: square,
    holderCrewId: 10,
    holderSubcontractorId: null,
    ...overrides,
  };
}

describe('permits in force', () => {
  it('is active and valid_from ≤ t < valid_to', () => {
    expect(isInForce(permit(), T0)).toBe(true);
    expect(isInForce(permit(), T0 + 8 * HOUR - 1)).toBe(true);
    expect(isInForce(permit(), T0 + 8 * HOUR)).toBe(false);
    expect(isInForce(permit(), T0 - 1)).toBe(false);
    for (const status of ['draft', 'suspended', 'closed'] as const)
      expect(isInForce(permit({ status }), T0 + HOUR)).toBe(false);
  });

  it('finds the permits of the floor holding a point at an instant, edges included', () => {
    const permits = [permit(), permit({ id: 2, floorId: 8 }), permit({ id: 3, status: 'draft' })];
    expect(permitsAt(permits, 7, inside, T0 + HOUR).map((p) => p.id)).toEqual([1]);
    expect(permitsAt(permits, 7, [55.3, 25.1995], T0 + HOUR).map((p) => p.id)).toEqual([1]);
    expect(permitsAt(permits, 7, outside, T0 + HOUR)).toEqual([]);
  });
});

describe('holders', () => {
  it('is the holder crew by the current crew, or the holder subcontractor', () => {
    expect(isHolder(permit(), { crewId: 10, subcontractorId: 3 })).toBe(true);
    expect(isHolder(permit(), { crewId: 11, subcontractorId: 3 })).toBe(false);
    expect(isHolder(permit(), null)).toBe(false);
    const bySubcontractor = permit({ holderCrewId: null, holderSubcontractorId: 3 });
    expect(isHolder(bySubcontractor, { crewId: null, subcontractorId: 3 })).toBe(true);
    expect(isHolder(bySubcontractor, { crewId: 10, subcontractorId: null })).toBe(false);
  });

  it('wants exactly one holder', () => {
    expect(holderProblem(1, null)).toBeNull();
    expect(holderProblem(undefined, 2)).toBeNull();
    expect(holderProblem(null, null)).not.toBeNull();
    expect(holderProblem(1, 2)).not.toBeNull();
  });
});

describe('entering a permit area', () => {
  const painter = { crewId: 11, subcontractorId: null };
  const at = T0 + HOUR;

  it('alerts on outside → inside of a hot-work area for someone not holding it', () => {
    const entered = enteredPermitAreas(
      [permit()],
      { floorId: 7, point: outside },
      { floorId: 7, point: inside, atMs: at },
      painter,
    );
    expect(entered.map((p) => p.id)).toEqual([1]);
  });

  it('stays quiet inside, for holders, for other types and for permits not in force', () => {
    const next = { floorId: 7, point: inside, atMs: at };
    expect(enteredPermitAreas([permit()], { floorId: 7, point: inside }, next, painter)).toEqual([]);
    expect(
      enteredPermitAreas([permit()], { floorId: 7, point: outside }, next, {
        crewId: 10,
        subcontractorId: null,
      }),
    ).toEqual([]);
    expect(enteredPermitAreas([permit({ type: 'workAtHeight' })], null, next, painter)).toEqual([]);
    expect(enteredPermitAreas([permit({ status: 'suspended' })], null, next, painter)).toEqual([]);
  });

  it('counts arriving from another floor or from nowhere as an entry', () => {
    const next = { floorId: 7, point: inside, atMs: at };
    expect(enteredPermitAreas([permit()], { floorId: 8, point: inside }, next, painter)).toHaveLength(1);
    expect(enteredPermitAreas([permit()], null, next, painter)).toHaveLength(1);
  });
});

describe('statuses and validity', () => {
  it('allows draft → active → suspended → active → closed and nothing out of closed', () => {
    expect(canChangeStatus('draft', 'active')).toBe(true);
    expect(canChangeStatus('active', 'suspended')).toBe(true);
    expect(canChangeStatus('suspended', 'active')).toBe(true);
    expect(canChangeStatus('active', 'closed')).toBe(true);
    expect(canChangeStatus('draft', 'suspended')).toBe(false);
    expect(canChangeStatus('suspended', 'draft')).toBe(false);
    for (const status of PERMIT_STATUSES.filter((s) => s !== 'closed'))
      expect(canChangeStatus('closed', status)).toBe(false);
  });

  it('wants valid dates, from strictly before to', () => {
    expect(validityProblems('2026-03-01T08:00:00Z', '2026-03-01T09:00:00Z')).toEqual({});
    expect(validityProblems('2026-03-01T08:00:00Z', '2026-03-01T08:00:00Z')).toEqual({
      valid_to: 'Valid to must be after valid from',
    });
    expect(Object.keys(validityProblems('soon', '2026-03-01T08:00:00Z'))).toEqual(['valid_from']);
  });
});

/** An 80 m × 50 m floor near Dubai, a→b east, a→d south (as the demo's). */
const LAT_PER_M = 1 / 111_195;
const LONG_PER_M = 1 / (111_195 * Math.cos((25.2 * Math.PI) / 180));
const corners: FloorCorners = {
  a: { lat: 25.2, long: 55.3 },
  b: { lat: 25.2, long: 55.3 + 80 * LONG_PER_M },
  c: { lat: 25.2 - 50 * LAT_PER_M, long: 55.3 + 80 * LONG_PER_M },
  d: { lat: 25.2 - 50 * LAT_PER_M, long: 55.3 },
};
const metres = (x: number, y: number): LongLat => [55.3 + x * LONG_PER_M, 25.2 - y * LAT_PER_M];
const grid: GridAxes = {
  columns: 'ABCDEFGHI'.split('').map((label, i) => ({ label, offset_m: i * 10 })),
  rows: ['1', '2', '3', '4', '5', '6'].map((label, i) => ({ label, offset_m: i * 10 })),
};

describe('grid references', () => {
  it('names a point by its nearest column and row lines', () => {
    expect(gridReference(grid, corners, metres(21, 31))).toBe('C-4');
    expect(gridReference(grid, corners, metres(24.9, 34.9))).toBe('C-4');
    expect(gridReference(grid, corners, metres(25.1, 35.1))).toBe('D-5');
    expect(gridReference(grid, corners, metres(0, 0))).toBe('A-1');
    expect(gridReference(grid, corners, metres(80, 50))).toBe('I-6');
  });

  it('names nothing off the floor', () => {
    expect(gridReference(grid, corners, metres(-5, 10))).toBeNull();
    expect(gridReference(grid, corners, metres(10, 60))).toBeNull();
  });

  it('names a permit by its area centre', () => {
    const area = [metres(50, 5), metres(60, 5), metres(60, 20), metres(50, 20)];
    expect(gridReference(grid, corners, areaCentre(area))).toBe('F-2');
  });

  it('names any point on the floor with one of the grid labels', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 80, noNaN: true }),
        fc.double({ min: 0, max: 50, noNaN: true }),
        (x, y) => {
          const ref = gridReference(grid, corners, metres(x, y));
          const [column, row] = (ref ?? '').split('-');
          expect(Math.abs(grid.columns.find((c) => c.label === column)!.offset_m - x)).toBeLessThanOrEqual(
            5.01,
          );
          expect(Math.abs(grid.rows.find((r) => r.label === row)!.offset_m - y)).toBeLessThanOrEqual(5.01);
        },
      ),
    );
  });

  it('checks the axes against the floor', () => {
    expect(gridAxesProblems(grid, corners)).toEqual({});
    const problems = (axes: Partial<GridAxes>) => gridAxesProblems({ ...grid, ...axes }, corners);
    expect(problems({ columns: [] })).toEqual({
      'axes.columns': 'A grid needs at least one column line and one row line',
    });
    expect(
      problems({
        rows: [
          { label: '1', offset_m: 0 },
          { label: '1', offset_m: 5 },
        ],
      }),
    ).toEqual({
      'axes.rows': 'Axis labels must be unique',
    });
    expect(
      problems({
        rows: [
          { label: '1', offset_m: 5 },
          { label: '2', offset_m: 5 },
        ],
      }),
    ).toEqual({
      'axes.rows': 'Axis offsets must increase from one line to the next',
    });
    expect(
      problems({
        columns: [
          { label: 'A', offset_m: 0 },
          { label: 'B', offset_m: 81 },
        ],
      }),
    ).toEqual({
      'axes.columns': 'Axis offsets must be inside the floor',
    });
  });
});
