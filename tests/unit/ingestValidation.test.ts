import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkPositions,
  countByReason,
  parseHelmetEvents,
  parseNodes,
  parsePositions,
} from '../../src/domain/ingestValidation';
import { MAX_CLOCK_SKEW_MS, type PositionMessage } from '../../src/domain/live';

const now = Date.parse('2025-03-01T12:00:00.000Z');

const position = (overrides: Record<string, unknown> = {}) => ({
  tag: 'HELMET-1',
  ts: '2025-03-01T11:59:00.000Z',
  lat: 51.5,
  long: -0.12,
  floorId: 3,
  online: true,
  active: true,
  ...overrides,
});

const node = (overrides: Record<string, unknown> = {}) => ({
  networkId: 1,
  nodeId: 'ANCHOR-7',
  type: 'anchor',
  bufferUsage: 0.2,
  linkQuality: 88,
  batteryVoltage: 3.6,
  displacementError: 0.4,
  ts: '2025-03-01T11:59:00Z',
  lat: 51.5,
  long: -0.12,
  ...overrides,
});

const bytes = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('positions', () => {
  it('accepts one object and an array of them, with the timestamp in one spelling', () => {
    const single = parsePositions(bytes(position({ ts: '2025-03-01T12:59:00+01:00' })), now);
    expect(single.rejected).toEqual([]);
    expect(single.accepted).toEqual([position({ ts: '2025-03-01T11:59:00.000Z' })]);

    const batch = parsePositions(JSON.stringify([position(), position({ tag: 'HELMET-2' })]), now);
    expect(batch.accepted.map((p) => p.tag)).toEqual(['HELMET-1', 'HELMET-2']);
  });

  it('refuses bytes that are not JSON as one badJson, whatever the content', () => {
    expect(parsePositions(Buffer.from('{"tag": "HELMET-1",'), now)).toEqual({
      accepted: [],
      rejected: [{ reason: 'badJson' }],
    });
    expect(parsePositions(Buffer.from([0xff, 0xfe, 0x7b]), now).rejected).toEqual([{ reason: 'badJson' }]);
  });

  it.each([
    ['a missing tag', { tag: undefined }],
    ['an empty tag', { tag: '  ' }],
    ['a number as floor', { floorId: '3' }],
    ['a fractional floor', { floorId: 2.5 }],
    ['a floor beyond integer', { floorId: 2 ** 31 }],
    ['a string latitude', { lat: '51.5' }],
    ['online as a string', { online: 'true' }],
    ['a missing active flag', { active: undefined }],
    ['a date without a time', { ts: '2025-03-01' }],
    ['a time without an offset', { ts: '2025-03-01T11:59:00' }],
    ['a made-up date', { ts: '2025-13-45T11:59:00Z' }],
    ['30 February', { ts: '2025-02-30T11:59:00Z' }],
    ['a timestamp as epoch millis', { ts: now }],
  ])('calls %s a badShape', (_label, overrides) => {
    expect(checkPositions(position(overrides), now).rejected.map((r) => r.reason)).toEqual(['badShape']);
  });

  it.each([
    ['latitude above 90', { lat: 90.0001 }],
    ['latitude below -90', { lat: -91 }],
    ['longitude above 180', { long: 180.5 }],
    ['longitude below -180', { long: -181 }],
    ['an infinite latitude', { lat: Number.POSITIVE_INFINITY }],
    ['a NaN longitude', { long: Number.NaN }],
  ])('calls %s outOfRange', (_label, overrides) => {
    expect(checkPositions(position(overrides), now).rejected.map((r) => r.reason)).toEqual(['outOfRange']);
  });

  it('refuses a timestamp further ahead than the allowed clock skew, and takes one just inside it', () => {
    const ahead = (ms: number) => position({ ts: new Date(now + ms).toISOString() });
    expect(checkPositions(ahead(MAX_CLOCK_SKEW_MS + 1000), now).rejected.map((r) => r.reason)).toEqual([
      'futureTimestamp',
    ]);
    expect(checkPositions(ahead(MAX_CLOCK_SKEW_MS - 1000), now).accepted).toHaveLength(1);
  });

  it('keeps the good entries of a batch around the bad ones, in order, and says why each bad one went', () => {
    const batch = [
      position({ tag: 'A' }),
      'not an object',
      position({ tag: 'B', lat: 123 }),
      null,
      position({ tag: 'C' }),
      position({ tag: 'D', ts: new Date(now + 3_600_000).toISOString() }),
    ];
    const result = parsePositions(bytes(batch), now);
    expect(result.accepted.map((p) => p.tag)).toEqual(['A', 'C']);
    expect(result.rejected.map((r) => r.reason)).toEqual([
      'badShape',
      'outOfRange',
      'badShape',
      'futureTimestamp',
    ]);
    expect(result.rejected[0].entry).toBe('not an object');
    expect(countByReason(result.rejected)).toEqual({ badShape: 2, outOfRange: 1, futureTimestamp: 1 });
  });

  it('never throws and accounts for every entry of any JSON array', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 20 }), (entries) => {
        const result = checkPositions(entries, now);
        expect(result.accepted.length + result.rejected.length).toBe(entries.length);
      }),
    );
  });

  it('never throws on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (raw) => {
        const result = parsePositions(raw, now);
        expect(result.accepted.length + result.rejected.length).toBeGreaterThanOrEqual(1);
      }),
    );
  });

  const validPosition = fc.record({
    tag: fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== ''),
    ts: fc
      .integer({ min: Date.parse('2000-01-01T00:00:00Z'), max: now + MAX_CLOCK_SKEW_MS })
      .map((ms) => new Date(ms).toISOString()),
    lat: fc.double({ min: -90, max: 90, noNaN: true }),
    long: fc.double({ min: -180, max: 180, noNaN: true }),
    floorId: fc.integer({ min: 1, max: 2_147_483_647 }),
    online: fc.boolean(),
    active: fc.boolean(),
  });

  it('accepts every well-formed position unchanged, and a bad entry among them never drops a good one', () => {
    fc.assert(
      fc.property(
        fc.array(validPosition, { maxLength: 10 }),
        fc.array(fc.oneof(fc.constant('garbage'), fc.constant({ tag: 'X' }), fc.integer()), { maxLength: 5 }),
        fc.nat(),
        (good: PositionMessage[], bad, seed) => {
          const mixed: unknown[] = [...good];
          for (const [i, entry] of bad.entries()) mixed.splice((seed + i) % (mixed.length + 1), 0, entry);
          const result = parsePositions(bytes(mixed), now);
          // Through JSON, as on the wire (-0 arrives as 0).
          expect(result.accepted).toEqual(JSON.parse(JSON.stringify(good)));
          expect(result.rejected).toHaveLength(bad.length);
        },
      ),
    );
  });
});

describe('node diagnostics', () => {
  it('accepts a report and refuses missing measures, bad coordinates and future times', () => {
    const result = parseNodes(
      bytes([
        node(),
        node({ batteryVoltage: undefined }),
        node({ networkId: 0 }),
        node({ long: 200 }),
        node({ ts: new Date(now + 3_600_000).toISOString() }),
      ]),
      now,
    );
    expect(result.accepted).toEqual([node({ ts: '2025-03-01T11:59:00.000Z', neighbors: [] })]);
    expect(result.rejected.map((r) => r.reason)).toEqual([
      'badShape',
      'badShape',
      'outOfRange',
      'futureTimestamp',
    ]);
  });
});

describe('helmet events', () => {
  it('accepts an acknowledge and refuses unknown event types', () => {
    const result = parseHelmetEvents(
      bytes([
        { tag: 'HELMET-1', ts: '2025-03-01T11:59:00Z', type: 'acknowledge' },
        { tag: 'HELMET-1', ts: '2025-03-01T11:59:00Z', type: 'explode' },
      ]),
      now,
    );
    expect(result.accepted).toEqual([
      { tag: 'HELMET-1', ts: '2025-03-01T11:59:00.000Z', type: 'acknowledge' },
    ]);
    expect(result.rejected.map((r) => r.reason)).toEqual(['badShape']);
  });
});
