import { useQuery } from '@tanstack/react-query';
import { useActorRef } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { distinctUntilChanged, filter, from, map, NEVER, type Observable, of, shareReplay } from 'rxjs';
import type { Actor } from 'xstate';
import { liveSettingsQuery, liveUrl } from '../../../api/live';
import { openSafetyChannel, type SafetyChannel } from '../../../api/safetySocket';
import type { EvacuationWorker, NetworkFailure } from '../../../domain/evacuation';
import { messages } from '../../../domain/messages';
import { evacuationMachine } from '../../../machines/evacuation.machine';
import { evacuationEvents$, failedNetworks$ } from '../../../streams/evacuation.stream';
import { floorWorkers$ } from '../../../streams/floorWorkers.stream';
import type { LiveEvent } from '../../../streams/liveEvent';
import type { WorkerMap } from '../../../streams/workerMapState';
import { useApi } from '../../session/SessionProvider';
import { browserStorage, readToken } from '../../session/storedSession';

const getToken = () => readToken(browserStorage());

export type EvacuationActor = Actor<typeof evacuationMachine>;

export interface EvacuationWall {
  actor: EvacuationActor;
  /** Every helmet of the site with a position (the live map under the evacuation). */
  siteLive$: Observable<WorkerMap>;
  /** The included workers as the machine holds them. */
  included$: Observable<ReadonlyMap<number, EvacuationWorker>>;
  failedNetworks: ReadonlyMap<number, NetworkFailure>;
  /** The live settings could not be read: no socket at all. */
  unavailable: boolean;
}

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : messages.somethingWentWrong;
}

/**
 * The wall screen's one socket (the site's live channel with the safety events), the evacuation
 * machine fed by it, and the site's live map. The machine's requests become socket calls here.
 */
export function useEvacuationWall(siteId: number, canWrite: boolean): EvacuationWall {
  const api = useApi();
  const settings = useQuery(liveSettingsQuery(api));
  const [channelRef] = useState<{ current: SafetyChannel | null }>(() => ({ current: null }));

  const actor = useActorRef(
    evacuationMachine.provide({
      actions: {
        requestEvacuation: ({ self }) => {
          const channel = channelRef.current;
          if (!channel) return;
          channel.requestEvacuation().then(
            (snapshot) =>
              self.send(snapshot ? { type: 'evacuation.snapshot', snapshot } : { type: 'evacuation.none' }),
            (error: unknown) => self.send({ type: 'evacuation.requestFailed', message: messageOf(error) }),
          );
        },
        requestStart: ({ self }, request) => {
          const channel = channelRef.current;
          if (!channel) return self.send({ type: 'start.failed', message: messages.pleaseTryAgain });
          channel.startEvacuation(request).then(
            (evacuation) => self.send({ type: 'start.succeeded', evacuation }),
            (error: unknown) => self.send({ type: 'start.failed', message: messageOf(error) }),
          );
        },
        requestEnd: ({ self }, request) => {
          const channel = channelRef.current;
          if (!channel) return self.send({ type: 'end.failed', message: messages.pleaseTryAgain });
          channel.endEvacuation(request).then(
            (evacuation) => self.send({ type: 'end.succeeded', evacuation }),
            (error: unknown) => self.send({ type: 'end.failed', message: messageOf(error) }),
          );
        },
      },
    }),
    { input: { siteId, canWrite } },
  );

  const live = useMemo(() => {
    if (!settings.data) return null;
    const channel = openSafetyChannel({ url: liveUrl(window.location, settings.data), getToken, siteId });
    const liveEvents$ = channel.events$.pipe(
      filter(
        (event): event is LiveEvent =>
          event.type === 'snapshot' || event.type === 'update' || event.type === 'connection',
      ),
    );
    const siteLive$ = floorWorkers$({
      floorId: null,
      live$: liveEvents$,
      requestSnapshot: () => channel.requestSnapshot(),
    }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
    return { channel, siteLive$ };
  }, [settings.data, siteId]);

  const [failedNetworks, setFailedNetworks] = useState<ReadonlyMap<number, NetworkFailure>>(new Map());

  useEffect(() => {
    if (!live) return;
    channelRef.current = live.channel;
    // All subscribe before the socket can say anything: none misses the first snapshot.
    const subscriptions = [
      evacuationEvents$(siteId, live.channel.events$).subscribe((event) => actor.send(event)),
      failedNetworks$(siteId, live.channel.events$).subscribe(setFailedNetworks),
      live.siteLive$.subscribe(),
    ];
    return () => {
      for (const s of subscriptions) s.unsubscribe();
      if (channelRef.current === live.channel) channelRef.current = null;
    };
  }, [live, siteId, actor, channelRef]);

  const included$ = useMemo(
    () =>
      from(actor).pipe(
        map((snapshot) => snapshot.context.workers),
        distinctUntilChanged(),
        shareReplay({ bufferSize: 1, refCount: true }),
      ),
    [actor],
  );

  return {
    actor,
    siteLive$: live?.siteLive$ ?? NEVER,
    included$: live ? included$ : of(new Map()),
    failedNetworks,
    unavailable: settings.isError,
  };
}
