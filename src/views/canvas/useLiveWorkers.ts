import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { NEVER, type Observable, shareReplay } from 'rxjs';
import { fetchFloorWorkers } from '../../api/inventory';
import { liveSettingsQuery, liveUrl, openLiveChannel } from '../../api/live';
import { floorWorkers$ } from '../../streams/floorWorkers.stream';
import type { LiveConnectionState } from '../../streams/liveEvent';
import { polledWorkers$ } from '../../streams/polledWorkers.stream';
import type { WorkerMap } from '../../streams/workerMapState';
import { useApi } from '../session/SessionProvider';
import { browserStorage, readToken } from '../session/storedSession';

export interface LiveConnection {
  state: LiveConnectionState;
  reason?: string;
}

export interface LiveWorkers {
  /** The merged helmets; replays the latest map to late subscribers (the canvas mounts later). */
  workers$: Observable<WorkerMap>;
  connection: LiveConnection;
}

const getToken = () => readToken(browserStorage());

/**
 * The live helmets of one floor (socket on that floor's room plus the 15-second poll) or, with
 * `floorId` null, of the whole site (socket only). One socket per call; it closes on unmount or
 * when the site or floor changes.
 */
export function useLiveWorkers(siteId: number | null, floorId: number | null, enabled = true): LiveWorkers {
  const api = useApi();
  const settings = useQuery({ ...liveSettingsQuery(api), enabled });
  const [connection, setConnection] = useState<LiveConnection>({ state: 'connecting' });

  const live = useMemo(() => {
    if (!enabled || !settings.data || siteId === null) return null;
    const channel = openLiveChannel({
      url: liveUrl(window.location, settings.data),
      getToken,
      siteId,
      floorId: floorId ?? undefined,
    });
    const workers$ = floorWorkers$({
      floorId,
      live$: channel.events$,
      requestSnapshot: () => channel.requestSnapshot(),
      poll$:
        floorId === null ? undefined : polledWorkers$((signal) => fetchFloorWorkers(api, floorId, signal)),
    }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
    return { channel, workers$ };
  }, [api, enabled, settings.data, siteId, floorId]);

  useEffect(() => {
    if (!live) return;
    setConnection({ state: 'connecting' });
    // Both subscribe before the socket can say anything, so neither misses the first snapshot.
    const subscriptions = [
      live.channel.events$.subscribe((event) => {
        if (event.type === 'connection') setConnection({ state: event.state, reason: event.reason });
      }),
      live.workers$.subscribe(),
    ];
    return () => {
      for (const s of subscriptions) s.unsubscribe();
    };
  }, [live]);

  return {
    workers$: live?.workers$ ?? NEVER,
    connection: settings.isError ? { state: 'offline' } : connection,
  };
}
