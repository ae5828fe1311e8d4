import type { LivePublisher } from '../live/liveChanges';
import type { LiveHub } from '../live/liveHub';
import type { EvacuationServiceRuntime } from './evacuationService';

export interface SafetyPublisherParts {
  hub: LiveHub;
  evacuation: Pick<EvacuationServiceRuntime, 'onHelmetChanges' | 'onHelmetEvents'>;
  incidents: { publishIncidents(siteId: number, incidentIds: readonly number[]): Promise<void> };
}

/**
 * What the ingest and the offline sweep publish to: the live map first (locationUpdate), then
 * the evacuation, which re-evaluates the workers of those helmets, then the incident feed. The
 * evacuation is not awaited: it merges what arrives while it works and reports its own failures
 * (safetyServiceError), so the live map never waits for a status evaluation.
 */
export function createSafetyPublisher({ hub, evacuation, incidents }: SafetyPublisherParts): LivePublisher {
  return {
    async publish(batch) {
      await hub.publish(batch);
      void evacuation.onHelmetChanges(batch);
    },
    async publishHelmetEvents(siteId, events) {
      await hub.publishHelmetEvents?.(siteId, events);
      void evacuation.onHelmetEvents(siteId, events);
    },
    async publishIncidents(siteId, incidentIds) {
      await incidents.publishIncidents(siteId, incidentIds);
    },
  };
}
