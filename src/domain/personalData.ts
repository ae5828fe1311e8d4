import { can } from './access';
import type { WorkerOnMap } from './inventory';
import type { Role } from './roles';

/**
 * Who may see whose personal data (name, worker tag, contact number, picture, worker role,
 * subcontractor, worker id): the one rule the server's routes and live channel and the console
 * ask. Everything else about a helmet (status, helmet id, position, zone, floor, last seen) is
 * shown to whoever may see the map it is on.
 */
export type PersonalDataContext =
  /** GET /floors/{id}/workers, the live snapshot and its locationUpdate deltas. */
  | 'map'
  /** The evacuation wall screen and the safety routes' worker lists. */
  | 'evacuationWall'
  /** The worker list, page and writes. */
  | 'workerRecords'
  /** GET /sites/{id}/workers/{id}/picture: the worker records' and the evacuation wall's pictures. */
  | 'picture';

/**
 * `all`: every worker of the sites the role sees; `currentCrews`: only the workers whose current
 * crew (latest assignment dated today or earlier in the site's time zone) the user manages;
 * `none`: anonymous markers only.
 */
export type PersonalDataReach = 'all' | 'currentCrews' | 'none';

function workerRecordsReach(role: Role): PersonalDataReach {
  if (!can(role, 'open', 'workers')) return 'none';
  return role === 'crew-manager' ? 'currentCrews' : 'all';
}

export function personalDataReach(role: Role, context: PersonalDataContext): PersonalDataReach {
  switch (context) {
    case 'map':
    case 'workerRecords':
      return workerRecordsReach(role);
    case 'evacuationWall':
      return can(role, 'open', 'evacuation') ? 'all' : 'none';
    case 'picture':
      return can(role, 'open', 'evacuation') ? 'all' : workerRecordsReach(role);
  }
}

/** Whether a viewer with this reach may see this worker's personal data. */
export function maySeePersonalData(
  reach: PersonalDataReach,
  workerId: number | null,
  currentCrewMembers: ReadonlySet<number>,
): boolean {
  if (reach === 'all') return true;
  return reach === 'currentCrews' && workerId !== null && currentCrewMembers.has(workerId);
}

/** The fields of a marker that tell who wears the helmet. */
export const PERSONAL_FIELDS = [
  'id',
  'name',
  'worker_tag_id',
  'contact_number',
  'role_name',
  'subcontractor_name',
  'profile_picture_path',
] as const;
export type PersonalField = (typeof PERSONAL_FIELDS)[number];

/** The helmet without the person: what a viewer who may not see the wearer gets. */
export function anonymousMarker(worker: WorkerOnMap): WorkerOnMap {
  return {
    ...worker,
    id: null,
    name: null,
    worker_tag_id: null,
    contact_number: null,
    role_name: null,
    subcontractor_name: null,
    profile_picture_path: null,
  };
}

/**
 * A marker's helmet state alone, to lay over a worker known from elsewhere (the evacuation wall's
 * included workers) without wiping its name with an anonymous marker's nulls.
 */
export function helmetState(worker: WorkerOnMap): Omit<WorkerOnMap, PersonalField> {
  const state: Partial<WorkerOnMap> = { ...worker };
  for (const field of PERSONAL_FIELDS) delete state[field];
  return state as Omit<WorkerOnMap, PersonalField>;
}

/** The markers as a viewer with this reach (and, for crew managers, these members) may see them. */
export function markersFor(
  reach: PersonalDataReach,
  workers: readonly WorkerOnMap[],
  currentCrewMembers: ReadonlySet<number> = new Set(),
): WorkerOnMap[] {
  if (reach === 'all') return [...workers];
  return workers.map((worker) =>
    maySeePersonalData(reach, worker.id, currentCrewMembers) ? worker : anonymousMarker(worker),
  );
}

/** A marker's label: the wearer's name, or the helmet id when it is anonymous or unassigned. */
export function markerLabel(worker: Pick<WorkerOnMap, 'name' | 'wnt_inventory_id'>): string {
  return worker.name ?? worker.wnt_inventory_id;
}
