import { sql } from 'drizzle-orm';
import type { WorkerFlat, WorkerNested } from '../../src/domain/workers';
import type { Db } from '../db/database';
import { iso, rows } from './sqlRows';

/** The nested form of one worker (spec §3), with its crew, shift and helmet history. */
export async function nestedWorker(db: Db, flat: WorkerFlat): Promise<WorkerNested> {
  const crews = await rows<{ crew_id: number; crew_name: string; assigned_at: string | Date }>(
    db,
    sql`select ca.crew_id, c.name as crew_name, ca.assigned_at::text as assigned_at from crew_assignments ca
        join crews c on c.id = ca.crew_id where ca.worker_id = ${flat.id} order by ca.assigned_at, ca.id`,
  );
  const shifts = await rows<{ workshift_id: number; workshift_name: string; assigned_at: string }>(
    db,
    sql`select wa.workshift_id, ws.name as workshift_name, wa.assigned_at::text as assigned_at
        from workshift_assignments wa join workshifts ws on ws.id = wa.workshift_id
        where wa.worker_id = ${flat.id} order by wa.assigned_at, wa.id`,
  );
  const helmets = await rows<{
    inventory_id: number;
    wnt_inventory_id: string;
    assigned_at: Date | string;
    unassigned_at: Date | string | null;
  }>(
    db,
    sql`select h.inventory_item_id as inventory_id, i.wnt_inventory_id, h.assigned_at, h.unassigned_at
        from helmet_assignments h join inventory_items i on i.id = h.inventory_item_id
        where h.worker_id = ${flat.id} order by h.assigned_at desc, h.id desc limit 100`,
  );
  // Where the helmet was last placed (issue 6, the worker's page): the flat row carries names only.
  const [place] =
    flat.inventory_id === null
      ? []
      : await rows<{
          floor_id: number | null;
          building_id: number | null;
          zone_id: number | null;
          lat: number | null;
          long: number | null;
        }>(
          db,
          sql`select i.floor_id, f.building_id, i.zone_id, i.lat, i.long
              from inventory_items i left join floors f on f.id = i.floor_id where i.id = ${flat.inventory_id}`,
        );
  const named = (name: string | null) => (name === null ? null : { name });
  return {
    id: flat.id,
    media_url: flat.media_url,
    name: flat.name,
    site_id: flat.site_id,
    worker_tag_id: flat.worker_tag_id,
    contact_number: flat.contact_number,
    helmet_color: flat.helmet_color,
    created_at: flat.created_at,
    updated_at: flat.updated_at,
    inventory_id: flat.inventory_id,
    inventory_assigned_at: flat.inventory_assigned_at,
    worker_role_id: flat.worker_role_id,
    subcontractor_id: flat.subcontractor_id,
    WorkerRole: named(flat.worker_role_name),
    Subcontractor: named(flat.subcontractor_name),
    Inventory:
      flat.inventory_id === null
        ? null
        : {
            is_online: flat.is_online ?? false,
            is_active: flat.is_active ?? false,
            wnt_inventory_id: flat.wnt_inventory_id ?? '',
            Building: named(flat.building_name),
            Floor: named(flat.floor_name),
            Zone: named(flat.zone_name),
            last_seen: flat.last_seen,
            last_active_at: flat.last_active_at,
            floor_id: place?.floor_id ?? null,
            building_id: place?.building_id ?? null,
            zone_id: place?.floor_id ? (place.zone_id ?? null) : null,
            coordinates:
              place?.floor_id && place.lat !== null && place.long !== null
                ? { lat: Number(place.lat), long: Number(place.long) }
                : null,
          },
    AssignedCrews: crews.map((c) => ({ ...c, assigned_at: String(c.assigned_at).slice(0, 10) })),
    AssignedWorkshifts: shifts.map((s) => ({ ...s, assigned_at: String(s.assigned_at).slice(0, 10) })),
    HelmetHistory: helmets.map((h) => ({
      inventory_id: h.inventory_id,
      wnt_inventory_id: h.wnt_inventory_id,
      assigned_at: iso(h.assigned_at) ?? '',
      unassigned_at: iso(h.unassigned_at),
    })),
    crew_name: flat.crew_name,
    workshift_name: flat.workshift_name,
    worker_status: flat.worker_status ?? null,
  };
}
