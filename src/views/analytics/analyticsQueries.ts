import { utcSeconds } from './analyticsRange';

/** A Cube REST query as the overview sends it (the gateway speaks Cube's protocol). */
export interface PresenceQuery {
  measures: string[];
  dimensions?: string[];
  timeDimensions: { dimension: string; dateRange: [string, string]; granularity?: 'hour' }[];
  filters?: { member: string; operator: 'equals' | 'set'; values?: string[] }[];
  order?: Record<string, 'asc' | 'desc'>;
  limit?: number;
  timezone: string;
}

/** A row of a Cube reply: member → value (numbers arrive as numbers or numeric strings). */
export type CubeRow = Readonly<Record<string, string | number | boolean | null>>;

export const MEMBERS = {
  workerHours: 'Presence.workerHours',
  distinctWorkers: 'Presence.distinctWorkers',
  bucket: 'Presence.bucket',
  site: 'Presence.siteId',
  floor: 'Presence.floorName',
  zone: 'Presence.zoneName',
  subcontractor: 'Presence.subcontractorName',
  role: 'Presence.workerRoleName',
} as const;

/** The overview's panels that list worker-hours by one dimension. */
export type BreakdownPanel = 'floors' | 'zones' | 'subcontractors' | 'roles';

export const BREAKDOWN_DIMENSION: Record<BreakdownPanel, string> = {
  floors: MEMBERS.floor,
  zones: MEMBERS.zone,
  subcontractors: MEMBERS.subcontractor,
  roles: MEMBERS.role,
};

/** How many zones the "busiest zones" panel ranks. */
export const BUSIEST_ZONES = 5;

export interface Window {
  readonly siteId: number;
  readonly fromMs: number;
  readonly toMs: number;
}

/**
 * Every query in UTC (spec §9: start-of-day instants sent in UTC as YYYY-MM-DDTHH:mm:ss); Cube's
 * date range includes its end, so it stops a second before the next range starts.
 */
function base({ siteId, fromMs, toMs }: Window, granularity?: 'hour'): PresenceQuery {
  return {
    measures: [],
    timeDimensions: [
      {
        dimension: MEMBERS.bucket,
        dateRange: [utcSeconds(fromMs), utcSeconds(toMs - 1000)],
        ...(granularity ? { granularity } : {}),
      },
    ],
    filters: [{ member: MEMBERS.site, operator: 'equals', values: [String(siteId)] }],
    timezone: 'UTC',
  };
}

export function headcountQuery(window: Window): PresenceQuery {
  return {
    ...base(window, 'hour'),
    measures: [MEMBERS.distinctWorkers],
    order: { [MEMBERS.bucket]: 'asc' },
  };
}

export function breakdownQuery(window: Window, panel: BreakdownPanel): PresenceQuery {
  const query = base(window);
  const dimension = BREAKDOWN_DIMENSION[panel];
  return {
    ...query,
    measures: [MEMBERS.workerHours],
    dimensions: [dimension],
    // Time outside every zone is no zone's: the zone panel lists zones only.
    filters:
      panel === 'zones' ? [...(query.filters ?? []), { member: dimension, operator: 'set' }] : query.filters,
    order: { [MEMBERS.workerHours]: 'desc' },
    limit: 50,
  };
}

export function busiestZonesQuery(window: Window): PresenceQuery {
  return {
    ...breakdownQuery(window, 'zones'),
    measures: [MEMBERS.workerHours, MEMBERS.distinctWorkers],
    limit: BUSIEST_ZONES,
  };
}

/** Worker-hours and distinct workers over a window (the live "last hour" figures). */
export function totalsQuery(window: Window): PresenceQuery {
  return { ...base(window), measures: [MEMBERS.workerHours, MEMBERS.distinctWorkers] };
}

export function numberOf(row: CubeRow | undefined, member: string): number {
  const value = row?.[member];
  const n = typeof value === 'number' ? value : Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
}

/** A dimension's text; null (workers without a subcontractor, say) reads as `none`. */
export function nameOf(row: CubeRow, member: string, none: string): string {
  const value = row[member];
  return value === null || value === undefined || value === '' ? none : String(value);
}

/**
 * Distinct workers per hour over the whole window, hours without anyone as 0, so the line has
 * no gaps. Cube names an hour bucket `<member>.hour` (in the query's time zone, UTC here).
 */
export function hourlySeries(
  rows: readonly CubeRow[],
  window: Window,
): { hours: number[]; values: number[] } {
  const byHour = new Map<number, number>();
  for (const row of rows) {
    const raw = row[`${MEMBERS.bucket}.hour`] ?? row[MEMBERS.bucket];
    if (raw === null || raw === undefined) continue;
    const text = String(raw);
    const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
    if (Number.isFinite(ms)) byHour.set(ms, numberOf(row, MEMBERS.distinctWorkers));
  }
  const hours: number[] = [];
  const values: number[] = [];
  const first = Math.floor(window.fromMs / 3_600_000) * 3_600_000;
  for (let at = first; at < window.toMs && hours.length < 24 * 62; at += 3_600_000) {
    hours.push(at);
    values.push(byHour.get(at) ?? 0);
  }
  return { hours, values };
}
