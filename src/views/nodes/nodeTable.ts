import {
  NODE_HEALTH_STATES,
  type NodeHealthState,
  type NodeProblemKind,
  type NodeType,
} from '../../domain/nodeHealth';
import type { SiteNode } from '../../domain/schemas/nodes';

/**
 * The rows of Nodes Management (spec §3 Node, plus where the node is and its health): columns,
 * sorting, filtering and which cells a crossed threshold highlights, all on the site's list as the
 * server sent it. Pure, so the screen and its tests share it.
 */

export type NodeColumnKey =
  | 'networkId'
  | 'nodeId'
  | 'type'
  | 'health'
  | 'bufferUsage'
  | 'linkQuality'
  | 'batteryVoltage'
  | 'updated'
  | 'displacementError'
  | 'building'
  | 'floor';

export interface NodeColumn {
  key: NodeColumnKey;
  width: number;
  /** Figures: right-aligned, kept left to right inside Arabic text. */
  numeric?: boolean;
}

export const NODE_COLUMNS: readonly NodeColumn[] = [
  { key: 'networkId', width: 115, numeric: true },
  { key: 'nodeId', width: 130 },
  { key: 'type', width: 90 },
  { key: 'health', width: 110 },
  { key: 'bufferUsage', width: 120, numeric: true },
  { key: 'linkQuality', width: 110, numeric: true },
  { key: 'batteryVoltage', width: 130, numeric: true },
  { key: 'updated', width: 140 },
  { key: 'displacementError', width: 175, numeric: true },
  { key: 'building', width: 130 },
  { key: 'floor', width: 120 },
];

/** The column a problem of each kind is read in. */
export const PROBLEM_COLUMN: Record<NodeProblemKind, NodeColumnKey> = {
  silent: 'updated',
  lowBattery: 'batteryVoltage',
  weakLink: 'linkQuality',
  bufferFilling: 'bufferUsage',
  moved: 'displacementError',
};

/** One node as the table shows it; a poll that brings the same node back keeps its row (see `mergeRows`). */
export interface NodeRow {
  node: SiteNode;
  /** Epoch ms of its latest report, or null. */
  updatedMs: number | null;
  /** The health state of each column a problem crossed a threshold in. */
  cellStates: Partial<Record<NodeColumnKey, Exclude<NodeHealthState, 'ok'>>>;
  /** Lower-cased node id, for the search. */
  searchText: string;
}

export function toNodeRow(node: SiteNode): NodeRow {
  const cellStates: NodeRow['cellStates'] = {};
  // Problems come worst first: the first of a column is the one it shows.
  for (const problem of node.health.problems) {
    const column = PROBLEM_COLUMN[problem.kind];
    if (!cellStates[column]) cellStates[column] = problem.state;
  }
  return {
    node,
    updatedMs: node.reading ? Date.parse(node.reading.ts) : null,
    cellStates,
    searchText: node.nodeId.toLowerCase(),
  };
}

/** What a row shows: the same signature, the same row object (and its cells drawn once). */
function signature(node: SiteNode): string {
  const problems = node.health.problems.map((problem) => `${problem.kind}:${problem.state}`).join(',');
  return [
    node.reading?.ts ?? '',
    node.health.state,
    problems,
    node.networkId ?? '',
    node.type,
    node.buildingName ?? '',
    node.floorName ?? '',
    node.floorId ?? '',
  ].join('|');
}

export interface RowCache {
  rows: NodeRow[];
  byId: Map<number, { signature: string; row: NodeRow }>;
}

export const EMPTY_ROW_CACHE: RowCache = { rows: [], byId: new Map() };

/**
 * The rows of a new reply, reusing the previous reply's row object for every node that shows the
 * same: the table then redraws only the cells of nodes that changed.
 */
export function mergeRows(previous: RowCache, nodes: readonly SiteNode[]): RowCache {
  const byId = new Map<number, { signature: string; row: NodeRow }>();
  const rows: NodeRow[] = new Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    const key = signature(node);
    const before = previous.byId.get(node.id);
    const entry = before && before.signature === key ? before : { signature: key, row: toNodeRow(node) };
    byId.set(node.id, entry);
    rows[i] = entry.row;
  }
  return { rows, byId };
}

export interface NodeSort {
  column: NodeColumnKey;
  direction: 'asc' | 'desc';
}

export const DEFAULT_NODE_SORT: NodeSort = { column: 'health', direction: 'desc' };

const HEALTH_RANK: Record<NodeHealthState, number> = { ok: 0, warning: 1, bad: 2 };

type SortValue = number | string | null;

/** The value a column sorts by; null sorts last whichever the direction. */
export function sortValue(row: NodeRow, column: NodeColumnKey): SortValue {
  const { node } = row;
  const reading = node.reading;
  switch (column) {
    case 'networkId':
      return node.networkId;
    case 'nodeId':
      return node.nodeId;
    case 'type':
      return node.type;
    case 'health':
      // Worse first when descending; among equals the lower score is worse.
      return HEALTH_RANK[node.health.state] * 1000 + (100 - node.health.score);
    case 'bufferUsage':
      return reading?.bufferUsage ?? null;
    case 'linkQuality':
      return reading?.linkQuality ?? null;
    case 'batteryVoltage':
      return reading?.batteryVoltage ?? null;
    case 'updated':
      return row.updatedMs;
    case 'displacementError':
      return reading?.displacementError ?? null;
    case 'building':
      return node.buildingName;
    case 'floor':
      return node.floorName;
  }
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/** A sorted copy; ties keep node id order, so a poll does not shuffle equal rows. */
export function sortRows(rows: readonly NodeRow[], sort: NodeSort): NodeRow[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const keyed = rows.map((row) => ({ row, value: sortValue(row, sort.column) }));
  keyed.sort((a, b) => {
    if (a.value === null || b.value === null) {
      if (a.value !== b.value) return a.value === null ? 1 : -1;
    } else {
      const order = compareValues(a.value, b.value);
      if (order !== 0) return sign * order;
    }
    return collator.compare(a.row.node.nodeId, b.row.node.nodeId);
  });
  return keyed.map((entry) => entry.row);
}

/** The next sort after a header is chosen: the same column flips, another starts ascending. */
export function nextSort(current: NodeSort, column: NodeColumnKey): NodeSort {
  if (current.column !== column) return { column, direction: 'asc' };
  return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
}

export interface NodeFilters {
  /** null: every network. */
  networkId: number | null;
  type: NodeType | null;
  health: NodeHealthState | null;
  search: string;
}

export const NO_NODE_FILTERS: NodeFilters = { networkId: null, type: null, health: null, search: '' };

export function filterRows(rows: readonly NodeRow[], filters: NodeFilters): NodeRow[] {
  const search = filters.search.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (filters.networkId === null || row.node.networkId === filters.networkId) &&
      (filters.type === null || row.node.type === filters.type) &&
      (filters.health === null || row.node.health.state === filters.health) &&
      (search === '' || row.searchText.includes(search)),
  );
}

/** The networks the site's nodes are on, ascending (a node on none is left out). */
export function networksOf(nodes: readonly SiteNode[]): number[] {
  const ids = new Set<number>();
  for (const node of nodes) if (node.networkId !== null) ids.add(node.networkId);
  return [...ids].sort((a, b) => a - b);
}

/** How many nodes are in each health state. */
export function healthCounts(nodes: readonly SiteNode[]): Record<NodeHealthState, number> {
  const counts = Object.fromEntries(NODE_HEALTH_STATES.map((state) => [state, 0])) as Record<
    NodeHealthState,
    number
  >;
  for (const node of nodes) counts[node.health.state] += 1;
  return counts;
}
