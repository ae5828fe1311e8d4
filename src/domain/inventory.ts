import type { LatLong } from './floor';

export const INVENTORY_TYPES = ['helmet', 'anchor', 'sink'] as const;
export type InventoryType = (typeof INVENTORY_TYPES)[number];

/** A device of a site as the inventory routes reply it (spec §3 "Asset and inventory item"). */
export interface InventoryItem {
  id: number;
  wnt_inventory_id: string;
  type: InventoryType;
  network_id: number | null;
  is_online: boolean;
  is_active: boolean;
  /** Anchors only: placed and confirmed. */
  is_approved: boolean;
  coordinates: LatLong | null;
  floor_id: number | null;
  zone_id: number | null;
  last_seen: string | null;
  last_active_at: string | null;
  worker_id: number | null;
  assigned_at: string | null;
}

/** One entry of the unassigned-helmet picker (GET /networks/{id}/inventory/assets?assigned=0). */
export interface AssetOption {
  value: number;
  label: string;
}

/**
 * A helmet on the floor canvas (spec §3 "Worker on the map"), keyed by `inventory_id`: a helmet
 * with no worker still shows (name null). Built by one query on the server for the socket, the
 * snapshot and the polled list alike. A viewer who may not see the wearer (personalData.ts) gets
 * an anonymous marker: every personal field (`PERSONAL_FIELDS`, the worker id included) null.
 */
export interface WorkerOnMap {
  /** The worker wearing the helmet; null for an unassigned helmet. */
  id: number | null;
  inventory_id: number;
  wnt_inventory_id: string;
  coordinates: LatLong | null;
  name: string | null;
  worker_tag_id: string | null;
  contact_number: string | null;
  role_name: string | null;
  subcontractor_name: string | null;
  last_seen: string | null;
  is_online: boolean;
  is_active: boolean;
  profile_picture_path: string | null;
  /** The helmet's colour as the worker record gives it (e.g. #ffcc00); not personal. */
  helmet_color: string | null;
  zone_id: number | null;
  zone_name: string | null;
  /** The floor (spec: blueprint). */
  blueprint_id: number | null;
  blueprint_name: string | null;
}

export type ConnectionStatus = 'active' | 'inactive' | 'offline';

/** Spec §3: not online is offline; online and active is active; online and not active is inactive. */
export function connectionStatus(flags: { is_online: boolean; is_active: boolean }): ConnectionStatus {
  if (!flags.is_online) return 'offline';
  return flags.is_active ? 'active' : 'inactive';
}

/** Marker colours outside an evacuation (issue: active #4caf50, inactive #f34436, other #b3bdcc). */
export const MARKER_COLOURS: Record<ConnectionStatus, number> = {
  active: 0x4caf50,
  inactive: 0xf34436,
  offline: 0xb3bdcc,
};
