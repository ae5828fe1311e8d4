/** The live client's event types live in src/domain (machines read them too); streams re-export them. */
export type { LiveConnectionEvent, LiveConnectionState, LiveEvent } from '../domain/liveEvents';
