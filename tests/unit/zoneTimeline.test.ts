import { describe, expect, it } from 'vitest';
import {
  bucketCounts,
  TIMELINE_MEMBERS,
  timelineGranularity,
  zoneOccupancy,
  zoneTimelineQuery,
} from '../../src/views/analytics/ZoneTimelineCounts';

/** The zone-occupancy timeline's counting: gateway rows (Presence cube) → one row per zone, columns in time. */

const T0 = Date.parse('2026-03-10T20:00:00Z'); // midnight in Dubai
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A reply row as the gateway writes it: a UTC wall time without a zone, numbers possibly as texts. */
function row(zoneId: number | string | null, ms: number, workers: number | string) {
  return {
    [TIMELINE_MEMBERS.zoneId]: zoneId,
    [`${TIMELINE_MEMBERS.bucket}.minute`]: new Date(ms).toISOString().slice(0, 23),
    [TIMELINE_MEMBERS.bucket]: new Date(ms).toISOString().slice(0, 23),
    [TIMELINE_MEMBERS.distinctWorkers]: workers,
  };
}

describe('zone timeline counts', () => {
  it('asks the gateway for distinct workers per zone and minute on the floor, the range in UTC', () => {
    const query = zoneTimelineQuery({ floorId: 7, fromMs: T0, toMs: T0 + DAY, zoneCount: 4 });
    expect(query.measures).toEqual(['Presence.distinctWorkers']);
    expect(query.dimensions).toEqual(['Presence.zoneId']);
    expect(query.timeDimensions).toEqual([
      {
        dimension: 'Presence.bucket',
        granularity: 'minute',
        dateRange: ['2026-03-10T20:00:00', '2026-03-11T19:59:59'],
      },
    ]);
    expect(query.filters).toContainEqual({ member: 'Presence.floorId', operator: 'equals', values: ['7'] });
    expect(query.timezone).toBe('UTC');
  });

  it('counts by the hour only when a day of minutes of every zone would not fit one reply', () => {
    expect(timelineGranularity(T0, T0 + DAY, 30)).toBe('minute');
    expect(timelineGranularity(T0, T0 + DAY, 40)).toBe('hour');
    expect(timelineGranularity(T0, T0 + 7 * DAY, 1)).toBe('hour');
  });

  it('reads the rows, leaving out those without a zone, a time or anyone', () => {
    const counts = bucketCounts(
      [row('3', T0, '2'), row(null, T0, 4), row(3, T0 + MINUTE, 0), { [TIMELINE_MEMBERS.zoneId]: 3 }],
      'minute',
    );
    expect(counts).toEqual([{ zoneId: 3, bucketMs: T0, workers: 2 }]);
  });

  it('draws the part of the day with anyone in a zone, a minute either side, each zone on its row', () => {
    const at = T0 + 9 * 60 * MINUTE; // 09:00 on the site's clock
    const counts = bucketCounts(
      [row(5, at, 2), row(5, at + MINUTE, 3), row(8, at + 4 * MINUTE, 1), row(99, at, 7)],
      'minute',
    );
    const grid = zoneOccupancy(counts, [8, 5], T0, T0 + DAY, 'minute');
    expect(grid.startMs).toBe(at - MINUTE);
    expect(grid.endMs).toBe(at + 6 * MINUTE);
    expect(grid.columnMs).toBe(MINUTE);
    expect(grid.columns).toBe(7);
    // Row 0 is zone 8, row 1 zone 5; zone 99 is not one of the floor's zones shown.
    expect([...grid.counts]).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 2, 3, 0, 0, 0, 0]);
    expect(grid.max).toBe(3);
  });

  it('merges minutes into at most the columns asked for, each showing the busiest minute', () => {
    const counts = bucketCounts(
      [row(1, T0, 1), row(1, T0 + MINUTE, 4), row(1, T0 + 2 * MINUTE, 2), row(1, T0 + 599 * MINUTE, 1)],
      'minute',
    );
    const grid = zoneOccupancy(counts, [1], T0, T0 + DAY, 'minute', 100);
    expect(grid.columns).toBeLessThanOrEqual(100);
    expect(grid.columnMs).toBe(7 * MINUTE);
    expect(grid.counts[0]).toBe(4);
    expect(grid.counts[grid.columns - 1]).toBe(1);
    expect([...grid.counts].reduce((a, b) => a + b, 0)).toBe(5);
  });

  it('spans the whole range with nothing in it', () => {
    const grid = zoneOccupancy([], [1, 2], T0, T0 + DAY, 'minute');
    expect([grid.startMs, grid.endMs]).toEqual([T0, T0 + DAY]);
    expect(grid.max).toBe(0);
    expect(grid.counts.every((c) => c === 0)).toBe(true);
  });
});
