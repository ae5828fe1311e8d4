import type { WorkerDisplay, WorkerSortField } from '../../domain/workers';

/**
 * The columns of the worker list (spec §3 display form), in order. The same list drives the
 * table and the .xlsx export, so both always show the same thing under the same headings.
 */
export type WorkerColumnKey =
  | 'name'
  | 'worker_tag_id'
  | 'helmet'
  | 'status'
  | 'worker_role'
  | 'subcontractor'
  | 'crew_name'
  | 'workshift_name'
  | 'worker_status'
  | 'contact_number'
  | 'building'
  | 'floor'
  | 'zone'
  | 'last_seen'
  | 'last_active'
  | 'inventory_assigned_at'
  | 'created_at';

export interface WorkerColumn {
  key: WorkerColumnKey;
  /** The server's sort field, when the column can be sorted. */
  sort?: WorkerSortField;
  width: number;
}

export const WORKER_COLUMNS: readonly WorkerColumn[] = [
  // Who, and where they are now: what a site admin reads first, in view at 1366 px and wider.
  { key: 'name', sort: 'name', width: 200 },
  { key: 'worker_tag_id', sort: 'worker_tag_id', width: 130 },
  { key: 'helmet', sort: 'wnt_inventory_id', width: 150 },
  { key: 'status', width: 100 },
  { key: 'building', width: 120 },
  { key: 'floor', width: 110 },
  { key: 'zone', width: 120 },
  { key: 'last_seen', sort: 'last_seen', width: 140 },
  // Then the records, reached by scrolling the table sideways (the name stays: it is frozen).
  { key: 'crew_name', width: 130 },
  { key: 'workshift_name', width: 130 },
  // The dated status (on leave, injured…), apart from the helmet's active/inactive `status`.
  { key: 'worker_status', width: 130 },
  { key: 'worker_role', sort: 'worker_role_name', width: 140 },
  { key: 'subcontractor', sort: 'subcontractor_name', width: 150 },
  { key: 'contact_number', sort: 'contact_number', width: 140 },
  { key: 'last_active', width: 140 },
  { key: 'inventory_assigned_at', width: 150 },
  { key: 'created_at', sort: 'created_at', width: 120 },
];

/** The text of one cell (the helmet cell adds its colour dot in the table). */
export function cellText(
  worker: WorkerDisplay,
  key: WorkerColumnKey,
  statusText: (status: string) => string,
): string {
  switch (key) {
    case 'helmet':
      return worker.helmet.wnt_inventory_id;
    case 'status':
      return statusText(worker.status);
    default:
      return worker[key];
  }
}

/**
 * A CSS colour for the helmet dot: a known colour name or a #hex passes, anything else (the
 * placeholder, a typo) gives null and no dot is drawn.
 */
export function helmetDotColor(color: string): string | null {
  const value = color.trim();
  if (/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(value)) return value;
  if (/^[a-z]{3,20}$/i.test(value)) return value.toLowerCase();
  return null;
}
