import { EVACUATION_MESSAGES, safetyRoom } from '../../../../src/domain/evacuation';
import type { SafetyServer } from '../safetyServer';
import type { MatrixWorld } from './matrixRunner';
import type { MatrixPrincipal } from './principals';
import { SCOPES, type SiteObjects } from './siteObjects';
import { inAudience } from './socketTable';

function expectedHandshake(principal: MatrixPrincipal, scope: (typeof SCOPES)[number]): number {
  if (principal.role === null) return 401;
  if (!inAudience(principal.role, 'admitted')) return 403;
  return principal.reach.has(scope) ? 200 : 404;
}

/** An evacuation request that every check passes but the scope one (nothing would start). */
const emptyStart = (siteId: number) => ({
  siteId,
  floorIds: [],
  zoneIds: [],
  assemblyZoneIds: [],
  safeZone: null,
  gateWayId: null,
});

/**
 * Each principal's socket on each scope's site, and on its floor: refused (401, 403, 404) or
 * admitted with the first snapshot; an admitted socket is in the site's safety room exactly when
 * its role watches safety. On its own site's floor it then sends the evacuation requests.
 */
export async function runSocketMatrix(world: MatrixWorld, safety: SafetyServer): Promise<string[]> {
  const mismatches: string[] = [];
  for (const principal of world.principals) {
    for (const scope of SCOPES) {
      const o: SiteObjects = world.objects[scope];
      for (const floorId of [undefined, o.floorId]) {
        const where = `${scope} ${floorId === undefined ? 'site' : 'floor'}`;
        const client = safety.connect({ token: principal.token ?? undefined, siteId: o.siteId, floorId });
        const handshake = await client.refused();
        const expected = expectedHandshake(principal, scope);
        if (handshake.status !== expected) {
          mismatches.push(
            `socket as ${principal.name} on the ${where}: expected ${expected}, got ${handshake.status} ${handshake.message}`,
          );
          client.close();
          continue;
        }
        if (expected !== 200 || principal.role === null) {
          client.close();
          continue;
        }
        await client.firstSnapshot();
        const rooms = safety.live.io.of('/').sockets.get(client.socket.id ?? '')?.rooms ?? new Set<string>();
        const watches = inAudience(principal.role, 'safetyWatchers');
        if (rooms.has(safetyRoom(o.siteId)) !== watches)
          mismatches.push(
            `socket as ${principal.name} on the ${where}: in the safety room should be ${watches}`,
          );
        if (scope === principal.home && floorId !== undefined)
          mismatches.push(...(await evacuationRequests(principal, client, o, world)));
        client.close();
      }
    }
  }
  mismatches.push(...(await foreignFloors(world, safety)));
  return mismatches;
}

/** A floor of another client named with the principal's own site: 404 to everyone signed in. */
async function foreignFloors(world: MatrixWorld, safety: SafetyServer): Promise<string[]> {
  const mismatches: string[] = [];
  for (const principal of world.principals) {
    if (principal.role === null) continue;
    const own = world.objects[principal.home];
    const foreign = world.objects[principal.home === 'own' ? 'other-client' : 'own'];
    const client = safety.connect({
      token: principal.token ?? undefined,
      siteId: own.siteId,
      floorId: foreign.floorId,
    });
    const handshake = await client.refused();
    if (handshake.status !== 404)
      mismatches.push(
        `socket as ${principal.name} on its site with a foreign floor: expected 404, got ${handshake.status}`,
      );
    client.close();
  }
  return mismatches;
}

async function evacuationRequests(
  principal: MatrixPrincipal,
  client: ReturnType<SafetyServer['connect']>,
  o: SiteObjects,
  world: MatrixWorld,
): Promise<string[]> {
  const role = principal.role;
  if (role === null) return [];
  const mismatches: string[] = [];
  const snapshot = await client.requestSnapshot();
  if (snapshot.siteId !== o.siteId || snapshot.floorId !== o.floorId)
    mismatches.push(
      `requestSnapshot as ${principal.name}: got the snapshot of ${snapshot.siteId}/${snapshot.floorId}`,
    );
  const writes = inAudience(role, 'evacuationWriters');
  const start = await client.start(emptyStart(o.siteId));
  const startExpected = writes ? EVACUATION_MESSAGES.emptyScope : EVACUATION_MESSAGES.forbidden;
  if (start.status !== 'error' || start.message !== startExpected)
    mismatches.push(
      `startEvacuation as ${principal.name}: expected "${startExpected}", got ${JSON.stringify(start)}`,
    );
  const end = await client.end({ siteId: o.siteId, evacuationSessionId: 'matrix-no-such-session' });
  const endExpected = writes ? EVACUATION_MESSAGES.notRunning : EVACUATION_MESSAGES.forbidden;
  if (end.status !== 'error' || end.message !== endExpected)
    mismatches.push(
      `endEvacuation as ${principal.name}: expected "${endExpected}", got ${JSON.stringify(end)}`,
    );
  // A socket acts on the site it was admitted to only, whoever holds it.
  for (const other of Object.values(world.objects)) {
    if (other.siteId === o.siteId || !writes) continue;
    const elsewhere = await client.start(emptyStart(other.siteId));
    if (elsewhere.status !== 'error' || elsewhere.message !== 'Site not found')
      mismatches.push(
        `startEvacuation as ${principal.name} for the ${other.scope} site: got ${JSON.stringify(elsewhere)}`,
      );
  }
  const watched = await client.requestEvacuation();
  const watches = inAudience(role, 'safetyWatchers');
  if ((watched.status === 'success') !== watches)
    mismatches.push(
      `requestEvacuation as ${principal.name}: expected ${watches ? 'success' : 'a refusal'}, got ${JSON.stringify(watched)}`,
    );
  return mismatches;
}
