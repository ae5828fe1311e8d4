import { useEffect, useMemo, useState } from 'react';
import { from, NEVER, type Observable, shareReplay } from 'rxjs';
import { fetchFloorWorkers } from '../../api/inventory';
import type { LiveConnectionState } from '../../domain/liveEvents';
import { floorWorkers$ } from '../../streams/floorWorkers.stream';
import { polledWorkers$ } from '../../streams/polledWorkers.stream';
import type { WorkerMap } from '../../streams/workerMapState';
import { useLiveClient } from '../session/LiveProvider';
import { useApi } from '../session/SessionProvider';

export interface LiveConnection {
  state: LiveConnectionState;
  reason?: string;
}

export interface LiveWorkers {
  /** The merged helmets; replays the latest map to late subscribers (the canvas mounts later). */
  workers$: Observable<WorkerMap>;
  connection: LiveConnection;
}

/**
 * The live helmets of one floor (the floor feed of the tab's live client plus the 15-second poll)
 * or, with `floorId` null, of the whole site (the site feed only). The feed is left on unmount or
 * when the site or floor changes; the connection stays the tab's.
 */
export function useLiveWorkers(siteId: number | null, floorId: number | null, enabled = true): LiveWorkers {
  const api = useApi();
  const client = useLiveClient();
  const [connection, setConnection] = useState<LiveConnection>({ state: 'connecting' });

  const live = useMemo(() => {
    if (!enabled || siteId === null) return null;
    // Each subscriber joins the client's one feed, which replays its snapshot and deltas to late joiners.
    const events$ = floorId === null ? client.site(siteId) : client.floor(siteId, floorId);
    const workers$ = floorWorkers$({
      floorId,
      live$: events$,
      requestSnapshot: () => from(client.requestSnapshot(siteId, floorId)),
      poll$:
        floorId === null ? undefined : polledWorkers$((signal) => fetchFloorWorkers(api, floorId, signal)),
    }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
    return { events$, workers$ };
  }, [api, client, enabled, siteId, floorId]);

  useEffect(() => {
    if (!live) return;
    setConnection({ state: 'connecting' });
    const subscriptions = [
      live.events$.subscribe((event) => {
        if (event.type === 'connection') setConnection({ state: event.state, reason: event.reason });
      }),
      live.workers$.subscribe(),
    ];
    return () => {
      for (const s of subscriptions) s.unsubscribe();
    };
  }, [live]);

  return { workers$: live?.workers$ ?? NEVER, connection };
}
