import type { InjectOptions } from 'fastify';
import { publishHelmetChanges } from '../../../../server/ingest/publishChanges';
import type { WorkerOnMap } from '../../../../src/domain/inventory';
import {
  maySeePersonalData,
  PERSONAL_FIELDS,
  type PersonalDataContext,
  personalDataReach,
} from '../../../../src/domain/personalData';
import type { Role } from '../../../../src/domain/roles';
import type { SafetyServer } from '../safetyServer';
import type { MatrixWorld } from './matrixRunner';
import type { MatrixPrincipal } from './principals';
import type { SiteObjects } from './siteObjects';

/**
 * The data columns of the matrix for the map's workers (GET /floors/{id}/workers and the live
 * snapshot): the two worn helmets of the principal's own floor, one worn by a member of the crew
 * the demo crew manager manages and one by a worker of an unmanaged crew, named or anonymous as
 * src/domain/personalData.ts says.
 */
function markerMismatches(
  what: string,
  role: Role,
  context: PersonalDataContext,
  markers: readonly WorkerOnMap[],
  o: SiteObjects,
): string[] {
  const reach = personalDataReach(role, context);
  // The seed makes the crew manager a manager of `crewId`, whose member is `workerId`.
  const members = new Set(role === 'crew-manager' ? [o.workerId] : []);
  const mismatches: string[] = [];
  for (const [tag, workerId] of [
    [o.helmetTag, o.workerId],
    [o.outsiderHelmetTag, o.outsiderWorkerId],
  ] as const) {
    const marker = markers.find((m) => m.wnt_inventory_id === tag);
    if (!marker) {
      mismatches.push(`${what}: no marker for helmet ${tag}`);
      continue;
    }
    const named = maySeePersonalData(reach, workerId, members);
    const shown = PERSONAL_FIELDS.filter((field) => marker[field] !== null);
    if (named && (marker.id !== workerId || marker.name === null))
      mismatches.push(`${what}: worker ${workerId} should be named, got ${JSON.stringify(marker)}`);
    if (!named && shown.length > 0)
      mismatches.push(`${what}: worker ${workerId} should be anonymous, shows ${shown.join(', ')}`);
    if (marker.coordinates === null) mismatches.push(`${what}: helmet ${tag} lost its position`);
  }
  return mismatches;
}

const QUIET_MS = 300;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The map's workers as each signed-in principal gets them on its own floor: from
 * GET /floors/{id}/workers, in its first live snapshot, and in the locationUpdate batches of one
 * committed change of both helmets (published as the ingest does). A batch may reach a crew
 * manager twice (its audience and its own room): a worker it may see must be named in one of
 * them, one it may not see in none.
 */
export async function runPersonalDataMatrix(
  world: MatrixWorld,
  api: (options: InjectOptions) => Promise<{ statusCode: number; body: string }>,
  safety: SafetyServer,
): Promise<string[]> {
  const mismatches: string[] = [];
  const signedIn = world.principals.filter(
    (p): p is MatrixPrincipal & { role: Role; token: string } => p.role !== null && p.token !== null,
  );
  const listeners: { principal: (typeof signedIn)[number]; client: ReturnType<SafetyServer['connect']> }[] =
    [];
  for (const principal of signedIn) {
    const o = world.objects[principal.home];
    const response = await api({
      method: 'GET',
      url: `/api/floors/${o.floorId}/workers`,
      headers: { authorization: `Bearer ${principal.token}` },
    });
    const what = `GET /api/floors/:id/workers as ${principal.name}`;
    if (response.statusCode !== 200) mismatches.push(`${what}: expected 200, got ${response.statusCode}`);
    else
      mismatches.push(
        ...markerMismatches(
          what,
          principal.role,
          'map',
          (JSON.parse(response.body) as { data: WorkerOnMap[] }).data,
          o,
        ),
      );
    const client = safety.connect({ token: principal.token, siteId: o.siteId, floorId: o.floorId });
    const snapshot = await client.firstSnapshot();
    mismatches.push(
      ...markerMismatches(`live snapshot as ${principal.name}`, principal.role, 'map', snapshot.workers, o),
    );
    listeners.push({ principal, client });
  }
  for (const o of new Set(signedIn.map((p) => world.objects[p.home])))
    await publishHelmetChanges(
      world.db,
      safety.live.publisher,
      o.siteId,
      [o.helmetId, o.outsiderHelmetId],
      new Map(),
    );
  for (const { principal, client } of listeners) {
    const o = world.objects[principal.home];
    await client.update(1);
    await pause(QUIET_MS);
    const markers = client.updates.flatMap((update) => update.workers);
    const what = `locationUpdate as ${principal.name}`;
    const named = (workerId: number) => markers.some((m) => m.id === workerId && m.name !== null);
    const reach = personalDataReach(principal.role, 'map');
    const members = new Set(principal.role === 'crew-manager' ? [o.workerId] : []);
    for (const workerId of [o.workerId, o.outsiderWorkerId]) {
      const may = maySeePersonalData(reach, workerId, members);
      if (may !== named(workerId)) mismatches.push(`${what}: worker ${workerId} named should be ${may}`);
    }
    const leaked = markers.filter((m) => m.id !== null && !maySeePersonalData(reach, m.id, members));
    if (leaked.length > 0)
      mismatches.push(`${what}: names workers it may not see: ${leaked.map((m) => m.id).join(', ')}`);
    client.close();
  }
  return mismatches;
}
