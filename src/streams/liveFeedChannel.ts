import type { Subscriber } from 'rxjs';
import type { LiveConnectionEvent, SafetyChannelEvent } from '../domain/liveEvents';
import { type LiveFeedRequest, liveFeedKey } from '../domain/liveFeeds';
import { type FeedPayloadEvent, isFeedSnapshot } from './livePayloads';

/** What a live client's feed says: its connection, then its snapshot, then deltas. */
export type FeedEvent = SafetyChannelEvent;

/** Deltas kept for a late subscriber (or held before the snapshot); beyond it they resync. */
const MAX_KEPT = 1000;

/**
 * One feed of the live client, shared by all its subscribers: until the server acknowledged the
 * feed's `subscribe` on the current connection its deltas are held back, so every subscriber
 * hears the snapshot first; a subscriber joining later hears the last snapshot and the deltas
 * since. Its connection state is the socket's, except that it is `live` only once subscribed.
 */
export class LiveFeedChannel {
  readonly key: string;
  readonly subscribers = new Set<Subscriber<FeedEvent>>();
  private ready = false;
  private held: FeedPayloadEvent[] = [];
  private replay: FeedPayloadEvent[] = [];
  private connection: LiveConnectionEvent = { type: 'connection', state: 'connecting' };

  constructor(readonly request: LiveFeedRequest) {
    this.key = liveFeedKey(request);
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** A new subscriber hears where the feed is: its connection and, once ready, what it knows. */
  add(subscriber: Subscriber<FeedEvent>): void {
    this.subscribers.add(subscriber);
    subscriber.next(this.connection);
    if (this.ready) for (const event of this.replay) subscriber.next(event);
  }

  /** A parsed payload of this feed's site or floor. */
  deliver(event: FeedPayloadEvent): void {
    if (!this.ready) {
      if (this.held.length < MAX_KEPT) this.held.push(event);
      return;
    }
    this.emit(event);
  }

  /** The server acknowledged `subscribe` with this snapshot (null: the feed has none now). */
  subscribed(snapshot: FeedPayloadEvent | null): void {
    this.ready = true;
    this.replay = [];
    const held = this.held;
    this.held = [];
    if (snapshot) this.emit(snapshot);
    // Deltas that beat the acknowledgement: the cursor rule of each consumer drops the stale ones.
    for (const event of held) this.emit(event);
    this.setConnection({ type: 'connection', state: 'live' });
  }

  /** The socket is down (or this feed was refused): hold deltas until the next snapshot. */
  down(connection: LiveConnectionEvent): void {
    this.ready = false;
    this.held = [];
    this.setConnection(connection);
  }

  private setConnection(connection: LiveConnectionEvent): void {
    this.connection = connection;
    for (const subscriber of this.subscribers) subscriber.next(connection);
  }

  private emit(event: FeedPayloadEvent): void {
    if (isFeedSnapshot(event)) this.replay = [event];
    else if (this.replay.length < MAX_KEPT) this.replay.push(event);
    else this.replay = [];
    for (const subscriber of this.subscribers) subscriber.next(event);
  }
}
