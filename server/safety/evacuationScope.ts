import { can } from '../../src/domain/access';
import { EVACUATION_MESSAGES, type StartEvacuationRequest } from '../../src/domain/evacuation';
import { evacuationScopeProblem } from '../../src/domain/evacuationRules';
import type { Principal } from '../auth/principal';
import { requireSite } from '../auth/tenancy';
import type { Db } from '../db/database';
import { forbidden, notFound, unprocessable } from '../http/errors';
import { isSiteNetwork, siteFloorsAndZones } from './evacuationStore';

const unique = (ids: readonly number[]) => [...new Set(ids)];

/**
 * The area of an evacuation about to start, checked: the caller may start one on the site, the
 * scope follows the rules, and every floor, zone and gateway named is the site's. Returns the
 * scope without repeats and the floors evacuated (those named and those of the zones named).
 */
export async function checkEvacuationScope(db: Db, principal: Principal, request: StartEvacuationRequest) {
  if (!can(principal.role, 'write', 'evacuation')) throw forbidden(EVACUATION_MESSAGES.forbidden);
  await requireSite(db, principal, request.siteId);
  const floorIds = unique(request.floorIds);
  const zoneIds = unique(request.zoneIds);
  const assemblyZoneIds = unique(request.assemblyZoneIds);
  const problem = evacuationScopeProblem({
    floorIds,
    zoneIds,
    assemblyZoneIds,
    safeZone: request.safeZone,
  });
  if (problem !== null) {
    const field = problem === EVACUATION_MESSAGES.emptyScope ? 'floorIds' : 'assemblyZoneIds';
    throw unprocessable({ [field]: problem }, problem);
  }
  const allZones = unique([
    ...zoneIds,
    ...assemblyZoneIds,
    ...(request.safeZone === null ? [] : [request.safeZone]),
  ]);
  const found = await siteFloorsAndZones(db, request.siteId, floorIds, allZones);
  if (floorIds.some((id) => !found.floorIds.has(id))) throw notFound('Floor');
  if (allZones.some((id) => !found.zoneFloorById.has(id))) throw notFound('Zone');
  if (request.gateWayId !== null && !(await isSiteNetwork(db, request.siteId, request.gateWayId)))
    throw notFound('Network');
  const evacuationFloorIds = unique([
    ...floorIds,
    ...zoneIds.map((id) => found.zoneFloorById.get(id) as number),
  ]);
  return { floorIds, zoneIds, assemblyZoneIds, evacuationFloorIds };
}
