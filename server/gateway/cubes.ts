/**
 * The analytics cubes, declared once as data (issue 16): the meta listing, the query's
 * validation and the SQL all read these declarations, so a member exists in all three or in none.
 *
 * Every SQL text here is a constant of this file. A query only ever picks declared members by
 * name; its values reach the database as parameters (server/gateway/statement.ts). Each cube
 * names the column that scopes it to the caller's sites (`site`), which the gateway always adds.
 */

export type MeasureType = 'count' | 'sum' | 'countDistinct' | 'avg' | 'min' | 'max';
export type DimensionType = 'string' | 'number' | 'time';

export interface MeasureDeclaration {
  type: MeasureType;
  title: string;
  /** The aggregated expression; `count` without it counts rows. */
  sql?: string;
  joins?: readonly string[];
}

export interface DimensionDeclaration {
  type: DimensionType;
  title: string;
  sql: string;
  joins?: readonly string[];
}

export interface JoinDeclaration {
  sql: string;
  /** Joins this one reads from; added before it. */
  requires?: readonly string[];
}

export interface CubeDeclaration {
  title: string;
  description: string;
  /** The base table with its alias. */
  from: string;
  /** The site column the caller's tenancy is applied to. */
  site: string;
  /** A condition every row of the cube meets (the zone visits are the `enter` events). */
  where?: string;
  /** Joins in the order they are written; a query adds only those its members need. */
  joins: Readonly<Record<string, JoinDeclaration>>;
  measures: Readonly<Record<string, MeasureDeclaration>>;
  dimensions: Readonly<Record<string, DimensionDeclaration>>;
}

/**
 * A worker's crew on a day: the assignment with the latest `assigned_at` on or before that day
 * in the site's time zone (crew_assignments: "from assigned_at until a later assignment"; two on
 * one day: the later id). Each assignment becomes a [from, to) period of local dates, joined on
 * the worker and the row's local date.
 */
function crewJoin(worker: string, instant: string): JoinDeclaration {
  return {
    requires: ['site'],
    sql: `left join (
      select ca.worker_id, ca.crew_id, ca.assigned_at as valid_from,
        lead(ca.assigned_at) over (partition by ca.worker_id order by ca.assigned_at, ca.id) as valid_to
      from crew_assignments ca
    ) cp on cp.worker_id = ${worker}
      and cp.valid_from <= (${instant} at time zone s.timezone)::date
      and (cp.valid_to is null or cp.valid_to > (${instant} at time zone s.timezone)::date)
    left join crews c on c.id = cp.crew_id`,
  };
}

/** The worker's current role and subcontractor (the data model keeps no history of either). */
function workerJoins(worker: string, instant: string, site: string, inner: boolean) {
  return {
    site: { sql: `join sites s on s.id = ${site}` },
    worker: { sql: `${inner ? 'join' : 'left join'} workers w on w.id = ${worker}` },
    workerRole: { sql: 'left join worker_roles wr on wr.id = w.worker_role_id', requires: ['worker'] },
    subcontractor: { sql: 'left join subcontractors sc on sc.id = w.subcontractor_id', requires: ['worker'] },
    crew: crewJoin(worker, instant),
  } satisfies Record<string, JoinDeclaration>;
}

function workerDimensions(worker: string) {
  return {
    siteId: { type: 'number', title: 'Site id', sql: 's.id', joins: ['site'] },
    siteName: { type: 'string', title: 'Site', sql: 's.name', joins: ['site'] },
    workerId: { type: 'number', title: 'Worker id', sql: worker },
    workerName: { type: 'string', title: 'Worker', sql: 'w.name', joins: ['worker'] },
    workerRoleId: { type: 'number', title: 'Role id', sql: 'w.worker_role_id', joins: ['worker'] },
    workerRoleName: { type: 'string', title: 'Role', sql: 'wr.name', joins: ['workerRole'] },
    subcontractorId: {
      type: 'number',
      title: 'Subcontractor id',
      sql: 'w.subcontractor_id',
      joins: ['worker'],
    },
    subcontractorName: { type: 'string', title: 'Subcontractor', sql: 'sc.name', joins: ['subcontractor'] },
    crewId: { type: 'number', title: 'Crew id', sql: 'cp.crew_id', joins: ['crew'] },
    crewName: { type: 'string', title: 'Crew', sql: 'c.name', joins: ['crew'] },
  } satisfies Record<string, DimensionDeclaration>;
}

const count = (title: string): MeasureDeclaration => ({ type: 'count', title });
const distinctWorkers = (worker: string): MeasureDeclaration => ({
  type: 'countDistinct',
  title: 'Distinct workers',
  sql: worker,
});

export const CUBES = {
  Presence: {
    title: 'Presence',
    description:
      'Seconds each worker spent on a floor and in a zone, per 1-minute bucket (the presence_minutes rollup).',
    from: 'presence_minutes pm',
    site: 'pm.site_id',
    joins: {
      ...workerJoins('pm.worker_id', 'pm.bucket', 'pm.site_id', true),
      floor: { sql: 'join floors f on f.id = pm.floor_id' },
      building: { sql: 'join buildings b on b.id = f.building_id', requires: ['floor'] },
      zone: { sql: 'left join zones z on z.id = pm.zone_id' },
    },
    measures: {
      workerSeconds: { type: 'sum', title: 'Worker-seconds', sql: 'pm.seconds' },
      workerHours: { type: 'sum', title: 'Worker-hours', sql: 'pm.seconds / 3600.0' },
      distinctWorkers: distinctWorkers('pm.worker_id'),
    },
    dimensions: {
      ...workerDimensions('pm.worker_id'),
      buildingId: { type: 'number', title: 'Building id', sql: 'f.building_id', joins: ['floor'] },
      buildingName: { type: 'string', title: 'Building', sql: 'b.name', joins: ['building'] },
      floorId: { type: 'number', title: 'Floor id', sql: 'pm.floor_id' },
      floorName: { type: 'string', title: 'Floor', sql: 'f.name', joins: ['floor'] },
      zoneId: { type: 'number', title: 'Zone id', sql: 'pm.zone_id' },
      zoneName: { type: 'string', title: 'Zone', sql: 'z.name', joins: ['zone'] },
      zoneKind: { type: 'string', title: 'Zone kind', sql: 'z.kind', joins: ['zone'] },
      bucket: { type: 'time', title: 'Minute', sql: 'pm.bucket' },
    },
  },
  ZoneVisits: {
    title: 'Zone visits',
    description: 'Every entry of a helmet into a zone (the enter rows of zone_events).',
    from: 'zone_events ze',
    site: 'ze.site_id',
    where: "ze.kind = 'enter'",
    joins: {
      ...workerJoins('ze.worker_id', 'ze.ts', 'ze.site_id', false),
      zone: { sql: 'join zones z on z.id = ze.zone_id' },
      floor: { sql: 'join floors f on f.id = z.floor_id', requires: ['zone'] },
      building: { sql: 'join buildings b on b.id = f.building_id', requires: ['floor'] },
    },
    measures: {
      count: count('Visits'),
      distinctWorkers: distinctWorkers('ze.worker_id'),
    },
    dimensions: {
      ...workerDimensions('ze.worker_id'),
      buildingName: { type: 'string', title: 'Building', sql: 'b.name', joins: ['building'] },
      floorId: { type: 'number', title: 'Floor id', sql: 'z.floor_id', joins: ['zone'] },
      floorName: { type: 'string', title: 'Floor', sql: 'f.name', joins: ['floor'] },
      zoneId: { type: 'number', title: 'Zone id', sql: 'ze.zone_id' },
      zoneName: { type: 'string', title: 'Zone', sql: 'z.name', joins: ['zone'] },
      zoneKind: { type: 'string', title: 'Zone kind', sql: 'z.kind', joins: ['zone'] },
      enteredAt: { type: 'time', title: 'Entered at', sql: 'ze.ts' },
    },
  },
  HelmetEvents: {
    title: 'Helmet events',
    description: 'Helmet buttons and alarms as the helmets reported them.',
    from: 'helmet_events he',
    site: 'he.site_id',
    joins: {
      ...workerJoins('he.worker_id', 'he.ts', 'he.site_id', false),
      helmet: { sql: 'join inventory_items ii on ii.id = he.inventory_item_id' },
    },
    measures: {
      count: count('Events'),
      distinctWorkers: distinctWorkers('he.worker_id'),
    },
    dimensions: {
      ...workerDimensions('he.worker_id'),
      type: { type: 'string', title: 'Type', sql: 'he.type' },
      helmetTag: { type: 'string', title: 'Helmet', sql: 'ii.wnt_inventory_id', joins: ['helmet'] },
      time: { type: 'time', title: 'Time', sql: 'he.ts' },
    },
  },
  Incidents: {
    title: 'Incidents',
    description: 'Helmet alarms and restricted-zone entries.',
    from: 'incidents i',
    site: 'i.site_id',
    joins: {
      ...workerJoins('i.worker_id', 'i.ts', 'i.site_id', false),
      floor: { sql: 'left join floors f on f.id = i.floor_id' },
      zone: { sql: 'left join zones z on z.id = i.zone_id' },
    },
    measures: {
      count: count('Incidents'),
      distinctWorkers: distinctWorkers('i.worker_id'),
    },
    dimensions: {
      ...workerDimensions('i.worker_id'),
      type: { type: 'string', title: 'Type', sql: 'i.type' },
      status: { type: 'string', title: 'Status', sql: 'i.status' },
      floorId: { type: 'number', title: 'Floor id', sql: 'i.floor_id' },
      floorName: { type: 'string', title: 'Floor', sql: 'f.name', joins: ['floor'] },
      zoneId: { type: 'number', title: 'Zone id', sql: 'i.zone_id' },
      zoneName: { type: 'string', title: 'Zone', sql: 'z.name', joins: ['zone'] },
      time: { type: 'time', title: 'Time', sql: 'i.ts' },
      escalatedAt: { type: 'time', title: 'Escalated at', sql: 'i.escalated_at' },
    },
  },
  Evacuations: {
    title: 'Evacuations',
    description: 'Evacuation sessions, their length and the workers they included.',
    from: 'evacuation_sessions es',
    site: 'es.site_id',
    joins: {
      site: { sql: 'join sites s on s.id = es.site_id' },
    },
    measures: {
      count: count('Evacuations'),
      durationSeconds: {
        type: 'sum',
        title: 'Duration (seconds)',
        sql: 'extract(epoch from (es.ended_at - es.started_at))',
      },
      includedWorkers: {
        type: 'sum',
        title: 'Included workers',
        sql: '(select count(*) from evacuation_workers ew where ew.session_id = es.id)',
      },
      safeWorkers: {
        type: 'sum',
        title: 'Workers safe',
        sql: "(select count(*) from evacuation_workers ew where ew.session_id = es.id and ew.status = 'safe')",
      },
    },
    dimensions: {
      id: { type: 'string', title: 'Evacuation', sql: 'es.id' },
      siteId: { type: 'number', title: 'Site id', sql: 'es.site_id' },
      siteName: { type: 'string', title: 'Site', sql: 's.name', joins: ['site'] },
      status: {
        type: 'string',
        title: 'Status',
        sql: "case when es.ended_at is null then 'running' else 'ended' end",
      },
      startedAt: { type: 'time', title: 'Started at', sql: 'es.started_at' },
      endedAt: { type: 'time', title: 'Ended at', sql: 'es.ended_at' },
    },
  },
} as const satisfies Record<string, CubeDeclaration>;

export type CubeName = keyof typeof CUBES;

export function cubeNamed(name: string): CubeDeclaration | undefined {
  return Object.hasOwn(CUBES, name) ? (CUBES as Record<string, CubeDeclaration>)[name] : undefined;
}

export type MemberKind = 'measure' | 'dimension';

export interface ResolvedMember {
  /** `Cube.member`, as queried. */
  name: string;
  cubeName: string;
  cube: CubeDeclaration;
  kind: MemberKind;
  declaration: MeasureDeclaration | DimensionDeclaration;
  type: DimensionType;
  title: string;
}

/** The declared member `Cube.member`, or undefined: a name outside the declarations never resolves. */
export function resolveMember(name: string): ResolvedMember | undefined {
  const parts = name.split('.');
  if (parts.length !== 2) return undefined;
  const [cubeName, memberName] = parts;
  const cube = cubeNamed(cubeName);
  if (!cube) return undefined;
  if (Object.hasOwn(cube.measures, memberName)) {
    const declaration = cube.measures[memberName];
    return {
      name,
      cubeName,
      cube,
      kind: 'measure',
      declaration,
      type: 'number',
      title: `${cube.title} ${declaration.title}`,
    };
  }
  if (Object.hasOwn(cube.dimensions, memberName)) {
    const declaration = cube.dimensions[memberName];
    return {
      name,
      cubeName,
      cube,
      kind: 'dimension',
      declaration,
      type: declaration.type,
      title: `${cube.title} ${declaration.title}`,
    };
  }
  return undefined;
}
