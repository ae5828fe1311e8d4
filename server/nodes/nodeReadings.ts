import { type SQL, sql } from 'drizzle-orm';
import type { NodeHealthReading, NodeType } from '../../src/domain/nodeHealth';
import type { NodeNeighbor, NodeReading } from '../../src/domain/schemas/nodes';

/**
 * How the node queries read `node_diagnostics` rows: the report columns under short names, its
 * time as epoch seconds (double precision, to the microsecond), and the mapping to the reply's
 * NodeReading and to what nodeHealth reads.
 */

/** A report as selected by READING_COLUMNS (`s` null: the node has no report). */
export interface ReadingRecord {
  s: number | string | null;
  lat: number | null;
  long: number | null;
  b: number | null;
  q: number | null;
  v: number | null;
  e: number | null;
  n: NodeNeighbor[] | string | null;
}

/** The report columns of `node_diagnostics` aliased `alias`, under ReadingRecord's names. */
export function readingColumns(alias: string): SQL {
  const d = sql.raw(alias);
  return sql`date_part('epoch', ${d}.ts) as s, ${d}.lat, ${d}.long, ${d}.buffer_usage as b,
    ${d}.link_quality as q, ${d}.battery_voltage as v, ${d}.displacement_error as e`;
}

export const timestampOf = (ms: number): SQL => sql`${new Date(ms).toISOString()}::timestamptz`;

/** Epoch milliseconds of a record's `s`. */
export const msOf = (seconds: number | string): number => Math.round(Number(seconds) * 1000);

function neighborsOf(value: ReadingRecord['n']): NodeNeighbor[] {
  if (value === null) return [];
  return typeof value === 'string' ? (JSON.parse(value) as NodeNeighbor[]) : value;
}

/** What nodeHealth reads of a report. */
export function healthReadingOf(record: ReadingRecord & { s: number | string }): NodeHealthReading {
  return {
    tsMs: msOf(record.s),
    batteryVoltage: Number(record.v ?? 0),
    bufferUsage: Number(record.b ?? 0),
    linkQuality: Number(record.q ?? 0),
    displacementError: record.e === null ? null : Number(record.e),
  };
}

/** The reply's reading of a report. */
export function nodeReadingOf(record: ReadingRecord & { s: number | string }): NodeReading {
  return {
    ts: new Date(msOf(record.s)).toISOString(),
    lat: Number(record.lat ?? 0),
    long: Number(record.long ?? 0),
    bufferUsage: Number(record.b ?? 0),
    linkQuality: Number(record.q ?? 0),
    batteryVoltage: Number(record.v ?? 0),
    displacementError: record.e === null ? null : Number(record.e),
    neighbors: neighborsOf(record.n),
  };
}

export const hasReading = <T extends ReadingRecord>(record: T): record is T & { s: number | string } =>
  record.s !== null;

export const asNodeType = (type: string): NodeType => (type === 'sink' ? 'sink' : 'anchor');
