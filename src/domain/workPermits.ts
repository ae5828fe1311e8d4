import type { LongLat } from './floor';
import { containsPoint, type PolygonProblem } from './polygon';

/**
 * Work permits (spec §7 "Work permits and grid", issue 19): permission for one holder (a crew or
 * a subcontractor) to do a kind of risky work in an area of a floor for a time. While in force,
 * the area acts as a zone for alerts: someone else walking into an active hot-work area raises a
 * `permitAreaEntry` incident (server/permits/permitAreaIncidents.ts).
 */

export const PERMIT_TYPES = [
  'hotWork',
  'workAtHeight',
  'confinedSpace',
  'electricalIsolation',
  'excavation',
  'other',
] as const;
export type PermitType = (typeof PERMIT_TYPES)[number];

export const PERMIT_STATUSES = ['draft', 'active', 'suspended', 'closed'] as const;
export type PermitStatus = (typeof PERMIT_STATUSES)[number];

/** The permit types whose area raises an incident when someone else enters it (issue 19). */
export const ALERTING_PERMIT_TYPES: readonly PermitType[] = ['hotWork'];

/**
 * Status changes a permit may make (docs/decisions.md "Work permits"): a draft is issued
 * (active) or withdrawn (closed); an active permit is suspended or closed; a suspended one is
 * resumed or closed; closed is final. Staying in the same status is always allowed (an edit).
 */
const NEXT_STATUSES: Record<PermitStatus, readonly PermitStatus[]> = {
  draft: ['active', 'closed'],
  active: ['suspended', 'closed'],
  suspended: ['active', 'closed'],
  closed: [],
};

/** The statuses a new permit may start in. */
export const INITIAL_PERMIT_STATUSES: readonly PermitStatus[] = ['draft', 'active'];

export function canChangeStatus(from: PermitStatus, to: PermitStatus): boolean {
  return from === to || NEXT_STATUSES[from].includes(to);
}

/** The statuses a permit in `from` can be moved to by a status button (not counting itself). */
export function nextStatuses(from: PermitStatus): readonly PermitStatus[] {
  return NEXT_STATUSES[from];
}

export function isPermitType(value: unknown): value is PermitType {
  return typeof value === 'string' && (PERMIT_TYPES as readonly string[]).includes(value);
}

export function isPermitStatus(value: unknown): value is PermitStatus {
  return typeof value === 'string' && (PERMIT_STATUSES as readonly string[]).includes(value);
}

/** What the in-force and holder rules read of a permit. */
export interface PermitRule {
  id: number;
  floorId: number;
  type: PermitType;
  status: PermitStatus;
  /** Epoch milliseconds. */
  validFromMs: number;
  validToMs: number;
  area: readonly LongLat[];
  holderCrewId: number | null;
  holderSubcontractorId: number | null;
}

/** In force at the instant: active, and valid_from ≤ t < valid_to. */
export function isInForce(
  permit: Pick<PermitRule, 'status' | 'validFromMs' | 'validToMs'>,
  atMs: number,
): boolean {
  return permit.status === 'active' && permit.validFromMs <= atMs && atMs < permit.validToMs;
}

/** The permits in force at the instant. */
export function permitsInForce<T extends Pick<PermitRule, 'status' | 'validFromMs' | 'validToMs'>>(
  permits: readonly T[],
  atMs: number,
): T[] {
  return permits.filter((permit) => isInForce(permit, atMs));
}

/** The permits of the floor, in force at the instant, whose area holds the point (edge included). */
export function permitsAt<T extends PermitRule>(
  permits: readonly T[],
  floorId: number,
  point: LongLat,
  atMs: number,
): T[] {
  return permits.filter(
    (permit) => permit.floorId === floorId && isInForce(permit, atMs) && containsPoint(permit.area, point),
  );
}

/** Who wears a helmet, as the holder rule needs it: the current crew and the subcontractor. */
export interface PermitWorker {
  crewId: number | null;
  subcontractorId: number | null;
}

/**
 * Whether the worker is covered by the permit: a member of its holder crew (by the current crew
 * assignment) or of its holder subcontractor. A helmet nobody wears is never a holder.
 */
export function isHolder(
  permit: Pick<PermitRule, 'holderCrewId' | 'holderSubcontractorId'>,
  worker: PermitWorker | null,
): boolean {
  if (!worker) return false;
  if (permit.holderCrewId !== null) return worker.crewId === permit.holderCrewId;
  return permit.holderSubcontractorId !== null && worker.subcontractorId === permit.holderSubcontractorId;
}

/**
 * The permits whose area a helmet has just entered and that alert on entry: in force at the new
 * position's instant, of an alerting type, holding the new point, not holding the previous point
 * (on the same floor) — so staying inside raises nothing — and not held by the worker.
 */
export function enteredPermitAreas<T extends PermitRule>(
  permits: readonly T[],
  previous: { floorId: number; point: LongLat } | null,
  next: { floorId: number; point: LongLat; atMs: number },
  worker: PermitWorker | null,
): T[] {
  return permitsAt(permits, next.floorId, next.point, next.atMs).filter(
    (permit) =>
      ALERTING_PERMIT_TYPES.includes(permit.type) &&
      !(previous && previous.floorId === permit.floorId && containsPoint(permit.area, previous.point)) &&
      !isHolder(permit, worker),
  );
}

/** Texts the server sends about permits (each has a key under server.permit in server.*.json). */
export const PERMIT_MESSAGES = {
  duplicateNumber: 'Permit number already exists!',
  tooFewPoints: 'A permit area needs at least 3 points that are not on one line',
  selfIntersecting: "A permit area's edges must not cross each other",
  outside: 'Every point of a permit area must be inside the floor',
  oneHolder: 'Choose either a crew or a subcontractor as the holder',
  validityOrder: 'Valid to must be after valid from',
  validityDate: 'Enter a valid date and time',
  initialStatus: 'A new permit starts as draft or active',
  statusChange: 'This status change is not allowed',
  closed: 'A closed permit cannot be changed',
  updated: 'Permit is updated successfully',
} as const;

export const PERMIT_AREA_MESSAGES: Record<PolygonProblem, string> = {
  tooFewPoints: PERMIT_MESSAGES.tooFewPoints,
  selfIntersecting: PERMIT_MESSAGES.selfIntersecting,
  outside: PERMIT_MESSAGES.outside,
};

/** The holder fields as sent: exactly one of them must be a number. */
export function holderProblem(
  crewId: number | null | undefined,
  subcontractorId: number | null | undefined,
): string | null {
  const crew = crewId !== null && crewId !== undefined;
  const subcontractor = subcontractorId !== null && subcontractorId !== undefined;
  return crew === subcontractor ? PERMIT_MESSAGES.oneHolder : null;
}

/** valid_from and valid_to as sent: both dates, from strictly before to. Field → message. */
export function validityProblems(validFrom: string, validTo: string): Record<string, string> {
  const from = Date.parse(validFrom);
  const to = Date.parse(validTo);
  const problems: Record<string, string> = {};
  if (!Number.isFinite(from)) problems.valid_from = PERMIT_MESSAGES.validityDate;
  if (!Number.isFinite(to)) problems.valid_to = PERMIT_MESSAGES.validityDate;
  if (Object.keys(problems).length === 0 && !(from < to)) problems.valid_to = PERMIT_MESSAGES.validityOrder;
  return problems;
}

/** A permit as the API replies it. */
export interface WorkPermit {
  id: number;
  site_id: number;
  floor_id: number;
  number: string;
  type: PermitType;
  /** The area's ring as [long, lat], open. */
  area: LongLat[];
  holder_crew_id: number | null;
  holder_subcontractor_id: number | null;
  /** The holder crew's or subcontractor's name. */
  holder_name: string;
  valid_from: string;
  valid_to: string;
  status: PermitStatus;
  /** The grid cell of the area's centre on the floor's grid field ("C-4"), or null without one. */
  grid_ref: string | null;
  created_at: string;
  updated_at: string;
}

/** The rule's view of a permit as replied. */
export function permitRuleOf(permit: WorkPermit): PermitRule {
  return {
    id: permit.id,
    floorId: permit.floor_id,
    type: permit.type,
    status: permit.status,
    validFromMs: Date.parse(permit.valid_from),
    validToMs: Date.parse(permit.valid_to),
    area: permit.area,
    holderCrewId: permit.holder_crew_id,
    holderSubcontractorId: permit.holder_subcontractor_id,
  };
}

/** The area's centroid (by area; the vertex mean for a degenerate ring), as [long, lat]. */
export function areaCentre(area: readonly LongLat[]): LongLat {
  // Relative to the first vertex: long/lat's large absolute values would cost precision.
  const [ox, oy] = area[0] ?? [0, 0];
  let twiceArea = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < area.length; i++) {
    const [x1, y1] = [area[i][0] - ox, area[i][1] - oy];
    const next = area[(i + 1) % area.length];
    const [x2, y2] = [next[0] - ox, next[1] - oy];
    const crossed = x1 * y2 - x2 * y1;
    twiceArea += crossed;
    cx += (x1 + x2) * crossed;
    cy += (y1 + y2) * crossed;
  }
  if (twiceArea === 0) {
    const n = Math.max(area.length, 1);
    return [area.reduce((s, p) => s + p[0], 0) / n, area.reduce((s, p) => s + p[1], 0) / n];
  }
  return [ox + cx / (3 * twiceArea), oy + cy / (3 * twiceArea)];
}
