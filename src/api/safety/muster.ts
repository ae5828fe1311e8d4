import { Type } from 'typebox';
import type { Evacuation } from '../../domain/evacuation';
import { EvacuationSchema } from '../../domain/schemas/safety';
import type { ApiClient } from '../client';

/**
 * The marshal's calls during a running evacuation (docs/api.md "Muster"). Each answers once the
 * change is committed; the wall learns the result from the evacuation stream like every screen.
 */

export const musterPaths = {
  mark: '/api/safety/evacuation/mark',
  unmark: '/api/safety/evacuation/unmark',
  roll: '/api/safety/evacuation/roll',
  area: '/api/safety/evacuation/area',
  redirect: '/api/safety/evacuation/redirect',
} as const;

export interface MusterSession {
  siteId: number;
  evacuationSessionId: string;
}

const Nothing = Type.Null();
const RollPersonAdded = Type.Object({ id: Type.Integer() });

export function markAccounted(
  api: ApiClient,
  session: MusterSession,
  subject: { workerId: number } | { rollPersonId: number },
  reason: string,
): Promise<null> {
  return api.post(musterPaths.mark, { ...session, ...subject, reason }, Nothing);
}

export function undoMark(api: ApiClient, session: MusterSession, markId: number): Promise<null> {
  return api.post(musterPaths.unmark, { ...session, markId }, Nothing);
}

export function addRollPerson(
  api: ApiClient,
  session: MusterSession,
  person: { name: string; company: string; reason: string | null },
): Promise<{ id: number }> {
  return api.post(musterPaths.roll, { ...session, ...person }, RollPersonAdded);
}

export function extendEvacuation(
  api: ApiClient,
  session: MusterSession,
  area: { floorIds: number[]; zoneIds: number[] },
): Promise<Evacuation> {
  return api.post(musterPaths.area, { ...session, ...area }, EvacuationSchema);
}

export function redirectAssembly(
  api: ApiClient,
  session: MusterSession,
  zones: { unsafeZoneId: number; redirectZoneId: number },
): Promise<Evacuation> {
  return api.post(musterPaths.redirect, { ...session, ...zones }, EvacuationSchema);
}
