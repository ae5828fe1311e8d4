import dayjs from 'dayjs';
import 'dayjs/locale/ar';
import relativeTime from 'dayjs/plugin/relativeTime';
import type { LatLong } from './floor';
import { connectionStatus } from './inventory';

dayjs.extend(relativeTime);

/**
 * The three forms of a worker (spec §3): the flat form of the list, the nested form of one
 * worker, and the display form both turn into through `toWorkerDisplay`.
 */

/** GET /sites/{id}/workers, one row (spec §3 "Worker, flat form from the server"). */
export interface WorkerFlat {
  id: number;
  media_url: string | null;
  name: string;
  site_id: number;
  worker_tag_id: string | null;
  contact_number: string | null;
  helmet_color: string | null;
  created_at: string;
  updated_at: string;
  inventory_id: number | null;
  inventory_assigned_at: string | null;
  is_online: boolean | null;
  is_active: boolean | null;
  worker_role_id: number | null;
  worker_role_name: string | null;
  wnt_inventory_id: string | null;
  building_name: string | null;
  floor_name: string | null;
  zone_name: string | null;
  last_seen: string | null;
  last_active_at: string | null;
  subcontractor_id: number | null;
  subcontractor_name: string | null;
  crew_name: string | null;
  workshift_name: string | null;
  /**
   * The name of the worker status whose spell covers the site's today (the latest-starting one),
   * or null; optional so that a reply without it (an older server) reads as none.
   */
  worker_status?: string | null;
}

export interface WorkerNestedInventory {
  is_online: boolean;
  is_active: boolean;
  wnt_inventory_id: string;
  Building: { name: string } | null;
  Floor: { name: string } | null;
  Zone: { name: string } | null;
  last_seen: string | null;
  last_active_at: string | null;
  /**
   * Where the helmet was last placed, for the worker's page (issue 6; not in the spec's nested
   * form, an additive departure recorded in docs/decisions.md). Null until it has been placed;
   * optional so that a reply without them (an older server) still reads as "not placed".
   */
  floor_id?: number | null;
  building_id?: number | null;
  zone_id?: number | null;
  coordinates?: LatLong | null;
}

export interface WorkerCrewAssignment {
  crew_id: number;
  crew_name: string;
  /** YYYY-MM-DD */
  assigned_at: string;
}

export interface WorkerWorkshiftAssignment {
  workshift_id: number;
  workshift_name: string;
  /** YYYY-MM-DD */
  assigned_at: string;
}

export interface WorkerHelmetHistoryEntry {
  inventory_id: number;
  wnt_inventory_id: string;
  assigned_at: string;
  unassigned_at: string | null;
}

/** GET /sites/{id}/workers/{id} (spec §3 "Worker, nested form"). */
export interface WorkerNested {
  id: number;
  media_url: string | null;
  name: string;
  site_id: number;
  worker_tag_id: string | null;
  contact_number: string | null;
  helmet_color: string | null;
  created_at: string;
  updated_at: string;
  inventory_id: number | null;
  inventory_assigned_at: string | null;
  worker_role_id: number | null;
  subcontractor_id: number | null;
  WorkerRole: { name: string } | null;
  Inventory: WorkerNestedInventory | null;
  Subcontractor: { name: string } | null;
  /** Oldest first. */
  AssignedCrews: WorkerCrewAssignment[];
  /** Oldest first. */
  AssignedWorkshifts: WorkerWorkshiftAssignment[];
  /** Newest first. */
  HelmetHistory: WorkerHelmetHistoryEntry[];
  /** The current crew and shift by the site's date (spec §3 current-assignment rule); null when none. */
  crew_name: string | null;
  workshift_name: string | null;
  /** As on the flat form: the status in force on the site's today, or null. */
  worker_status?: string | null;
}

/** Spec §3 derived worker status: active only when online and active; -NA- with no helmet. */
export type WorkerStatus = 'active' | 'inactive' | 'offline';

/** Spec §3 "Worker display form": every missing value is the caller's placeholder. */
export interface WorkerDisplay {
  id: number;
  inventory_id: number | null;
  image: { url: string | null; status: WorkerStatus | null };
  /** The derived status; the placeholder with no helmet or no flags. */
  status: WorkerStatus | string;
  /** The helmet's connection status (offline / active / inactive), or the placeholder. */
  connection: WorkerStatus | string;
  name: string;
  site_id: number;
  worker_tag_id: string;
  worker_role: string;
  subcontractor: string;
  helmet: { color: string; wnt_inventory_id: string };
  building: string;
  floor: string;
  zone: string;
  last_seen: string;
  last_active: string;
  contact_number: string;
  crew_name: string;
  workshift_name: string;
  /** The worker status in force today (on leave, injured…), or the placeholder. */
  worker_status: string;
  created_at: string;
  updated_at: string;
  inventory_assigned_at: string;
}

export interface WorkerDisplayOptions {
  placeholder: string;
  now: Date;
  /** Language of the relative times; en by default. */
  locale?: string;
}

function isNested(worker: WorkerFlat | WorkerNested): worker is WorkerNested {
  return 'AssignedCrews' in worker;
}

/** A timestamp or date as YYYY-MM-DD (UTC for timestamps), or null. */
export function displayDate(value: string | null | undefined): string | null {
  if (!value) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString().slice(0, 10);
}

/** "2 minutes ago", or null for a missing or unreadable time (spec §9: threshold of 0 seconds). */
export function relativeTimeOf(value: string | null | undefined, now: Date, locale = 'en'): string | null {
  if (!value) return null;
  const at = dayjs(value);
  if (!at.isValid()) return null;
  return at.locale(locale === 'ar' ? 'ar' : 'en').from(now);
}

const text = (value: string | null | undefined, placeholder: string) =>
  value === null || value === undefined || value.trim() === '' ? placeholder : value;

/** Spec §3: the one turn of a flat or nested worker into the display form. */
export function toWorkerDisplay(
  worker: WorkerFlat | WorkerNested,
  options: WorkerDisplayOptions,
): WorkerDisplay {
  const { placeholder: p, now, locale } = options;
  let flags: { is_online: boolean; is_active: boolean } | null;
  let role: string | null;
  let subcontractor: string | null;
  let wnt: string | null;
  let building: string | null;
  let floor: string | null;
  let zone: string | null;
  let lastSeen: string | null;
  let lastActive: string | null;
  if (isNested(worker)) {
    const inv = worker.Inventory;
    flags = inv ? { is_online: inv.is_online, is_active: inv.is_active } : null;
    role = worker.WorkerRole?.name ?? null;
    subcontractor = worker.Subcontractor?.name ?? null;
    wnt = inv?.wnt_inventory_id ?? null;
    building = inv?.Building?.name ?? null;
    floor = inv?.Floor?.name ?? null;
    zone = inv?.Zone?.name ?? null;
    lastSeen = inv?.last_seen ?? null;
    lastActive = inv?.last_active_at ?? null;
  } else {
    flags =
      worker.inventory_id !== null && worker.is_online !== null && worker.is_active !== null
        ? { is_online: worker.is_online, is_active: worker.is_active }
        : null;
    role = worker.worker_role_name;
    subcontractor = worker.subcontractor_name;
    wnt = worker.wnt_inventory_id;
    building = worker.building_name;
    floor = worker.floor_name;
    zone = worker.zone_name;
    lastSeen = worker.last_seen;
    lastActive = worker.last_active_at;
  }
  const connection = flags ? connectionStatus(flags) : null;
  const status: WorkerStatus | null = flags
    ? flags.is_online && flags.is_active
      ? 'active'
      : 'inactive'
    : null;
  return {
    id: worker.id,
    inventory_id: worker.inventory_id,
    image: { url: worker.media_url, status: connection },
    status: status ?? p,
    connection: connection ?? p,
    name: worker.name,
    site_id: worker.site_id,
    worker_tag_id: text(worker.worker_tag_id, p),
    worker_role: text(role, p),
    subcontractor: text(subcontractor, p),
    helmet: { color: text(worker.helmet_color, p), wnt_inventory_id: text(wnt, p) },
    building: text(building, p),
    floor: text(floor, p),
    zone: text(zone, p),
    last_seen: relativeTimeOf(lastSeen, now, locale) ?? p,
    last_active: relativeTimeOf(lastActive, now, locale) ?? p,
    contact_number: text(worker.contact_number, p),
    crew_name: text(worker.crew_name, p),
    workshift_name: text(worker.workshift_name, p),
    worker_status: text(worker.worker_status, p),
    created_at: displayDate(worker.created_at) ?? p,
    updated_at: displayDate(worker.updated_at) ?? p,
    inventory_assigned_at: displayDate(worker.inventory_assigned_at) ?? p,
  };
}

/** GET /sites/{id}/workers/statistics. */
export interface WorkerStatistics {
  total: number;
  byStatus: { active: number; inactive: number; offline: number; noHelmet: number };
  byRole: { id: number | null; name: string | null; count: number }[];
  bySubcontractor: { id: number | null; name: string | null; count: number }[];
}

export const WORKER_SORT_FIELDS = [
  'id',
  'name',
  'worker_tag_id',
  'contact_number',
  'created_at',
  'updated_at',
  'worker_role_name',
  'subcontractor_name',
  'wnt_inventory_id',
  'last_seen',
] as const;
export type WorkerSortField = (typeof WORKER_SORT_FIELDS)[number];
export const WORKER_STATUS_FILTERS = ['active', 'inactive', 'offline'] as const;
export const WORKER_PER_PAGE_MAX = 500;
export const WORKER_PICTURE_MAX_BYTES = 3 * 1024 * 1024;
