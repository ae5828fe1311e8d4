import fc from 'fast-check';
import { Check } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { decodeHistoryChunk, encodeHistoryChunk, type HistoryRow } from '../../src/domain/historyChunk';
import {
  HISTORY_ACTIVE,
  HISTORY_COORDINATE_UNIT,
  HISTORY_ONLINE,
  HistoryChunkSchema,
} from '../../src/domain/schemas/analytics';

const origin = { lat: 25.2, long: 55.27 };
const window = { floorId: 7, from: '2026-11-26T08:00:00.000Z', to: '2026-11-26T18:00:00.000Z' };
const fromMs = Date.parse(window.from);

/** Positions around the origin, in (time, helmet) order as the route reads them. */
const rowsArbitrary = fc
  .array(
    fc.record({
      dtMs: fc.integer({ min: 0, max: 36_000_000 }),
      inventoryItemId: fc.integer({ min: 1, max: 20 }),
      workerId: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
      dLat: fc.double({ min: -0.01, max: 0.01, noNaN: true }),
      dLong: fc.double({ min: -0.01, max: 0.01, noNaN: true }),
      zoneId: fc.option(fc.integer({ min: 1, max: 1000 }), { nil: null }),
      online: fc.boolean(),
      active: fc.boolean(),
    }),
    { maxLength: 200 },
  )
  .map((entries) =>
    entries
      .map(
        (e): HistoryRow => ({
          ms: fromMs + e.dtMs,
          inventoryItemId: e.inventoryItemId,
          workerId: e.workerId,
          lat: origin.lat + e.dLat,
          long: origin.long + e.dLong,
          zoneId: e.zoneId,
          online: e.online,
          active: e.active,
        }),
      )
      .sort((a, b) => a.ms - b.ms || a.inventoryItemId - b.inventoryItemId),
  );

describe('history chunk encoding', () => {
  it('round-trips every position: time, helmet and worker, zone, status, and lat/long within 1e-7°', () => {
    fc.assert(
      fc.property(rowsArbitrary, (rows) => {
        const chunk = encodeHistoryChunk(rows, { ...window, origin, nextCursor: 'next' });
        expect(Check(HistoryChunkSchema, chunk)).toBe(true);
        const decoded = decodeHistoryChunk(chunk);
        expect(decoded.times.length).toBe(rows.length);
        expect(decoded.nextCursor).toBe('next');
        expect(decoded.floorId).toBe(7);
        rows.forEach((row, i) => {
          expect(decoded.times[i]).toBe(row.ms);
          expect(decoded.helmets[decoded.helmetIndex[i]]).toEqual({
            inventoryItemId: row.inventoryItemId,
            workerId: row.workerId,
          });
          expect(Math.abs(decoded.lat[i] - row.lat)).toBeLessThanOrEqual(HISTORY_COORDINATE_UNIT);
          expect(Math.abs(decoded.long[i] - row.long)).toBeLessThanOrEqual(HISTORY_COORDINATE_UNIT);
          expect(decoded.zone[i]).toBe(row.zoneId ?? 0);
          expect(decoded.status[i]).toBe(
            (row.online ? HISTORY_ONLINE : 0) | (row.active ? HISTORY_ACTIVE : 0),
          );
        });
      }),
    );
  });

  it('sends times relative to the first position and one helmet entry per helmet and wearer', () => {
    const row = (ms: number, inventoryItemId: number, workerId: number | null): HistoryRow => ({
      ms,
      inventoryItemId,
      workerId,
      lat: origin.lat,
      long: origin.long + 0.000_123_4,
      zoneId: null,
      online: true,
      active: false,
    });
    const chunk = encodeHistoryChunk(
      [
        row(fromMs + 5000, 3, 1),
        row(fromMs + 5000, 4, null),
        row(fromMs + 6000, 3, 1),
        row(fromMs + 7000, 3, 2),
      ],
      { ...window, origin, nextCursor: null },
    );
    expect(chunk.startMs).toBe(fromMs + 5000);
    expect(chunk.t).toEqual([0, 0, 1000, 2000]);
    expect(chunk.h).toEqual([0, 1, 0, 2]);
    expect(chunk.helmets).toEqual([
      { inventoryItemId: 3, workerId: 1 },
      { inventoryItemId: 4, workerId: null },
      { inventoryItemId: 3, workerId: 2 },
    ]);
    expect(chunk.long).toEqual([1234, 1234, 1234, 1234]);
    expect(chunk.lat).toEqual([0, 0, 0, 0]);
    expect(chunk.status).toEqual([HISTORY_ONLINE, HISTORY_ONLINE, HISTORY_ONLINE, HISTORY_ONLINE]);
  });

  it('starts an empty chunk at `from`', () => {
    const chunk = encodeHistoryChunk([], { ...window, origin, nextCursor: null });
    expect(chunk.startMs).toBe(fromMs);
    const decoded = decodeHistoryChunk(chunk);
    expect(decoded.times).toEqual(new Float64Array(0));
    expect(decoded.helmets).toEqual([]);
  });
});
