import { describe, expect, it } from 'vitest';
import { greatCircleDistance } from '../../src/domain/distance';
import {
  type HistoryColumns,
  indexAtOrBefore,
  pathLengthMetres,
  TRACK_GAP_MS,
  trackSegments,
  tracksOf,
  zoneSeconds,
} from '../../src/domain/pathLength';

const T0 = Date.UTC(2026, 10, 26, 8);
/** About 1.11 m of latitude. */
const STEP = 1e-5;

function chunk(rows: [t: number, helmet: number, lat: number, long: number, zone: number][]): HistoryColumns {
  return {
    helmets: [
      { inventoryItemId: 10, workerId: 1 },
      { inventoryItemId: 11, workerId: null },
    ],
    times: rows.map((r) => r[0]),
    helmetIndex: rows.map((r) => r[1]),
    lat: rows.map((r) => r[2]),
    long: rows.map((r) => r[3]),
    zone: rows.map((r) => r[4]),
    status: rows.map(() => 3),
  };
}

describe('walking paths from history', () => {
  it('splits chunks into one time-ordered track per worker, even when chunks arrive out of order', () => {
    const later = chunk([
      [T0 + 2000, 0, 25.2 + 2 * STEP, 55.3, 7],
      [T0 + 2000, 1, 25.3, 55.4, 0],
    ]);
    const earlier = chunk([
      [T0, 0, 25.2, 55.3, 0],
      [T0 + 1000, 0, 25.2 + STEP, 55.3, 7],
    ]);
    const [worker, helmet] = tracksOf([later, earlier, earlier]);
    expect(worker.key).toBe('helmet:11');
    expect(helmet.key).toBe('worker:1');
    expect(helmet.times).toEqual([T0, T0 + 1000, T0 + 2000]);
    expect(helmet.zone).toEqual([0, 7, 7]);
    expect(worker.times).toEqual([T0 + 2000]);
  });

  it('measures the distance walked along the positions, not across a long gap', () => {
    const times = [T0, T0 + 1000, T0 + 2000, T0 + 2000 + TRACK_GAP_MS + 1, T0 + 3000 + TRACK_GAP_MS + 1];
    const lat = [25.2, 25.2 + STEP, 25.2 + 2 * STEP, 25.3, 25.3 + STEP];
    const long = [55.3, 55.3, 55.3, 55.3, 55.3];
    const step = greatCircleDistance({ lat: 25.2, long: 55.3 }, { lat: 25.2 + STEP, long: 55.3 });
    expect(step).toBeCloseTo(1.112, 2);
    expect(pathLengthMetres({ times, lat, long })).toBeCloseTo(3 * step, 6);
    expect(trackSegments(times)).toEqual([
      [0, 3],
      [3, 5],
    ]);
  });

  it('counts each position as one second in its zone', () => {
    const seconds = zoneSeconds({ zone: [0, 7, 7, 7, 9, 0] });
    expect(Object.fromEntries(seconds)).toEqual({ 0: 2, 7: 3, 9: 1 });
  });

  it('finds the position at or before a time', () => {
    const times = [10, 20, 30];
    expect(indexAtOrBefore(times, 5)).toBe(-1);
    expect(indexAtOrBefore(times, 20)).toBe(1);
    expect(indexAtOrBefore(times, 29)).toBe(1);
    expect(indexAtOrBefore(times, 99)).toBe(2);
  });
});
