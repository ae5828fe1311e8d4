import { parseTopic } from '../../src/domain/live';

/** The topic a site's helmets hear commands on (DESIGN §5). */
export function commandTopic(siteId: number, root: string): string {
  return `${root}/${siteId}/commands`;
}

/** A device of `siteId` may publish to its own site's positions, nodes and events, nowhere else. */
export function devicePublishAllowed(topic: string, root: string, siteId: number): boolean {
  return parseTopic(topic, root)?.siteId === siteId;
}

/** A device of `siteId` may subscribe to its own site's commands only: no wildcard, no other site. */
export function deviceSubscribeAllowed(topicFilter: string, root: string, siteId: number): boolean {
  return topicFilter === commandTopic(siteId, root);
}
