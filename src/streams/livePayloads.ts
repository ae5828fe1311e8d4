import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { SAFETY_EVENTS } from '../domain/evacuation';
import { LIVE_EVENTS } from '../domain/live';
import type { LiveEvent, SafetySocketEvent } from '../domain/liveEvents';
import { liveFeedKey } from '../domain/liveFeeds';
import {
  EvacuatingBatchSchema,
  EvacuationEndedSchema,
  EvacuationSnapshotSchema,
  LiveSnapshotSchema,
  LocationUpdateSchema,
  NetworkFailureSchema,
  SafetyEventsBatchSchema,
  SafetyServiceErrorSchema,
} from '../domain/schemas/liveEvents';

/** A feed's event that is not about the connection: a snapshot or a delta. */
export type FeedPayloadEvent = Exclude<LiveEvent, { type: 'connection' }> | SafetySocketEvent;

/** Where a parsed payload goes: the feed's key (liveFeedKey), or every evacuation feed. */
export interface RoutedPayload {
  readonly feedKey: string | 'every-evacuation-feed';
  readonly event: FeedPayloadEvent;
}

/** Whether the event replaces what a feed knows (a subscriber joining later starts from it). */
export function isFeedSnapshot(event: FeedPayloadEvent): boolean {
  return event.type === 'snapshot' || event.type === 'evacuationInProgress';
}

const positionFeedKey = (siteId: number, floorId: number | null) =>
  floorId === null ? liveFeedKey({ feed: 'site', siteId }) : liveFeedKey({ feed: 'floor', siteId, floorId });
const evacuationKey = (siteId: number) => liveFeedKey({ feed: 'evacuation', siteId });

interface Route {
  readonly schema: TSchema;
  readonly route: (payload: unknown) => RoutedPayload;
}

/** A route whose `to` sees the payload typed by its schema (checked before `to` runs). */
function route<S extends TSchema>(schema: S, to: (payload: Static<S>) => RoutedPayload): Route {
  return { schema, route: (payload) => to(payload as Static<S>) };
}

/** Every server → client event of the live socket: its schema from src/domain and its feed. */
export const PAYLOAD_ROUTES: Readonly<Record<string, Route>> = {
  [LIVE_EVENTS.snapshot]: route(LiveSnapshotSchema, (snapshot) => ({
    feedKey: positionFeedKey(snapshot.siteId, snapshot.floorId),
    event: { type: 'snapshot', snapshot },
  })),
  [LIVE_EVENTS.locationUpdate]: route(LocationUpdateSchema, (update) => ({
    feedKey: positionFeedKey(update.siteId, update.floorId),
    event: { type: 'update', update },
  })),
  [SAFETY_EVENTS.evacuationInProgress]: route(EvacuationSnapshotSchema, (snapshot) => ({
    feedKey: evacuationKey(snapshot.evacuation.siteId),
    event: { type: 'evacuationInProgress', snapshot },
  })),
  [SAFETY_EVENTS.evacuating]: route(EvacuatingBatchSchema, (batch) => ({
    feedKey: evacuationKey(batch.siteId),
    event: { type: 'evacuating', batch },
  })),
  [SAFETY_EVENTS.evacuationEnded]: route(EvacuationEndedSchema, (ended) => ({
    feedKey: evacuationKey(ended.siteId),
    event: { type: 'evacuationEnded', ended },
  })),
  [SAFETY_EVENTS.networkFailure]: route(NetworkFailureSchema, (failure) => ({
    feedKey: evacuationKey(failure.siteId),
    event: { type: 'networkFailure', failure },
  })),
  [SAFETY_EVENTS.safetyServiceError]: route(SafetyServiceErrorSchema, (error) => ({
    feedKey: error.siteId === null ? 'every-evacuation-feed' : evacuationKey(error.siteId),
    event: { type: 'safetyServiceError', error },
  })),
  [SAFETY_EVENTS.safetyEvents]: route(SafetyEventsBatchSchema, (batch) => ({
    feedKey: liveFeedKey({ feed: 'incidents', siteId: batch.siteId }),
    event: { type: 'safetyEvents', batch },
  })),
};

/** The payload of a server event parsed by its schema and routed, or null when it does not fit. */
export function routePayload(eventName: string, payload: unknown): RoutedPayload | null {
  const known = PAYLOAD_ROUTES[eventName];
  if (!known || !Value.Check(known.schema, payload)) return null;
  return known.route(payload);
}

/** A payload checked by its schema, typed; null when it does not fit. */
export function parsed<T>(schema: TSchema, payload: unknown): T | null {
  return Value.Check(schema, payload) ? (payload as T) : null;
}
