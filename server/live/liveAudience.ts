import { liveRoom } from '../../src/domain/live';
import { type PersonalDataReach, personalDataReach } from '../../src/domain/personalData';
import type { Role } from '../../src/domain/roles';

/**
 * A live room's listeners split by how much of the workers' personal data they may see
 * (src/domain/personalData.ts, context `map`): each batch of the room goes out once per audience
 * with the room's one cursor, so every socket still sees one gap-free sequence. A crew manager's
 * socket is in the room's crew-manager audience and in its own user's room, which hears the batch
 * with its current crew members named whenever there are some in it.
 */
const AUDIENCE: Record<PersonalDataReach, string> = {
  all: 'named',
  currentCrews: 'crewManagers',
  none: 'anonymous',
};

export function audienceRoom(room: string, reach: PersonalDataReach): string {
  return `${room}:${AUDIENCE[reach]}`;
}

export function crewManagerRoom(room: string, userId: number): string {
  return `${room}:crewManager:${userId}`;
}

/** The rooms a socket of this user joins to hear its site's or floor's live batches. */
export function liveRoomsOf(viewer: {
  userId: number;
  role: Role;
  siteId: number;
  floorId: number | null;
}): string[] {
  const room = liveRoom(viewer.siteId, viewer.floorId);
  const reach = personalDataReach(viewer.role, 'map');
  return reach === 'currentCrews'
    ? [audienceRoom(room, reach), crewManagerRoom(room, viewer.userId)]
    : [audienceRoom(room, reach)];
}
