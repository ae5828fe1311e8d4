import { socketEventsReference } from '../../../../server/docs/socketEvents';
import { can } from '../../../../src/domain/access';
import { SAFETY_EVENTS } from '../../../../src/domain/evacuation';
import { LIVE_EVENTS } from '../../../../src/domain/live';
import type { Role } from '../../../../src/domain/roles';

/**
 * Who hears or may send a socket event, once the handshake admitted the socket (a live session,
 * a role that opens the home map, a site and floor within reach):
 * - `admitted`: every admitted socket, on the site and floor it was admitted to;
 * - `safetyWatchers`: sockets of roles that open safety or evacuation (they join the site's safety room);
 * - `evacuationWriters`: roles that write evacuation; the others are answered with a refusal.
 */
export type SocketAudience = 'admitted' | 'safetyWatchers' | 'evacuationWriters';

export interface SocketEventRule {
  direction: 'server → client' | 'client → server';
  audience: SocketAudience;
}

const toClient = (audience: SocketAudience): SocketEventRule => ({ direction: 'server → client', audience });
const toServer = (audience: SocketAudience): SocketEventRule => ({ direction: 'client → server', audience });

/** Every socket event of the live channel; one missing here fails the suite. */
export const SOCKET_EVENTS: Readonly<Record<string, SocketEventRule>> = {
  [LIVE_EVENTS.snapshot]: toClient('admitted'),
  [LIVE_EVENTS.requestSnapshot]: toServer('admitted'),
  [LIVE_EVENTS.locationUpdate]: toClient('admitted'),
  // Each subscribe is admitted as a handshake is; the safety feeds need a safety watcher.
  [LIVE_EVENTS.subscribe]: toServer('admitted'),
  [LIVE_EVENTS.unsubscribe]: toServer('admitted'),
  [SAFETY_EVENTS.startEvacuation]: toServer('evacuationWriters'),
  [SAFETY_EVENTS.endEvacuation]: toServer('evacuationWriters'),
  [SAFETY_EVENTS.requestEvacuation]: toServer('safetyWatchers'),
  [SAFETY_EVENTS.evacuationInProgress]: toClient('safetyWatchers'),
  [SAFETY_EVENTS.evacuating]: toClient('safetyWatchers'),
  [SAFETY_EVENTS.evacuationEnded]: toClient('safetyWatchers'),
  [SAFETY_EVENTS.networkFailure]: toClient('safetyWatchers'),
  [SAFETY_EVENTS.safetyServiceError]: toClient('safetyWatchers'),
  [SAFETY_EVENTS.safetyEvents]: toClient('safetyWatchers'),
};

export function inAudience(role: Role, audience: SocketAudience): boolean {
  if (audience === 'admitted') return can(role, 'open', 'home');
  if (audience === 'safetyWatchers') return can(role, 'open', 'safety') || can(role, 'open', 'evacuation');
  return can(role, 'write', 'evacuation');
}

/** The event names docs/api.md lists (server/docs/socketEvents.ts). */
export function documentedSocketEvents(): string[] {
  return socketEventsReference().flatMap((line) => {
    const match = /^\| `(\w+)` \|/.exec(line);
    return match ? [match[1]] : [];
  });
}

/** Event names the code defines for the channel. */
export function definedSocketEvents(): string[] {
  return [...Object.values(LIVE_EVENTS), ...Object.values(SAFETY_EVENTS)];
}
