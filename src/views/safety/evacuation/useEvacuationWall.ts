import { useActorRef } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { distinctUntilChanged, filter, from, map, merge, type Observable, shareReplay } from 'rxjs';
import type { Actor } from 'xstate';
import type { EvacuationWorker, NetworkFailure } from '../../../domain/evacuation';
import type { SafetyChannelEvent } from '../../../domain/liveEvents';
import { messages } from '../../../domain/messages';
import { evacuationWallMachine } from '../../../machines/evacuation.machine';
import { evacuationEvents$, failedNetworks$ } from '../../../streams/evacuation.stream';
import { floorWorkers$ } from '../../../streams/floorWorkers.stream';
import type { LiveClient } from '../../../streams/liveClient';
import type { WorkerMap } from '../../../streams/workerMapState';
import { useLiveClient, useSafetyApi } from '../../session/LiveProvider';

export type EvacuationActor = Actor<typeof evacuationWallMachine>;

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

/** The wall machine with its requests made through the tab's live client. */
function wallMachineFor(client: LiveClient) {
  return evacuationWallMachine.provide({
    actions: {
      requestEvacuation: ({ self, context }) => {
        client.requestEvacuation(context.siteId).then(
          (snapshot) =>
            self.send(snapshot ? { type: 'evacuation.snapshot', snapshot } : { type: 'evacuation.none' }),
          (error: unknown) => self.send({ type: 'evacuation.requestFailed', message: messageOf(error) }),
        );
      },
      requestStart: ({ self }, request) => {
        client.startEvacuation(request).then(
          (evacuation) => self.send({ type: 'start.succeeded', evacuation }),
          (error: unknown) => self.send({ type: 'start.failed', message: messageOf(error) }),
        );
      },
      requestEnd: ({ self }, request) => {
        client.endEvacuation(request).then(
          (evacuation) => self.send({ type: 'end.succeeded', evacuation }),
          (error: unknown) => self.send({ type: 'end.failed', message: messageOf(error) }),
        );
      },
    },
  });
}

/**
 * The wall screen: the site's evacuation feed and site feed of the tab's live client, the
 * evacuation machine fed by both (its connection state is the evacuation feed's), and the
 * site's live map.
 */
export function useEvacuationWall(siteId: number, canWrite: boolean): EvacuationWall {
  const client = useLiveClient();
  const { error: settingsError } = useSafetyApi();
  const actor = useActorRef(wallMachineFor(client), { input: { siteId, canWrite } });

  const live = useMemo(() => {
    const site$ = client.site(siteId);
    const siteLive$ = floorWorkers$({
      floorId: null,
      live$: site$,
      requestSnapshot: () => from(client.requestSnapshot(siteId, null)),
    }).pipe(shareReplay({ bufferSize: 1, refCount: true }));
    // The machine hears the evacuation feed whole, and the site feed's positions (not its connection).
    const machine$: Observable<SafetyChannelEvent> = merge(
      client.evacuation(siteId),
      client.site(siteId).pipe(filter((event) => event.type !== 'connection')),
    );
    return { siteLive$, machine$ };
  }, [client, siteId]);

  const [failedNetworks, setFailedNetworks] = useState<ReadonlyMap<number, NetworkFailure>>(new Map());

  useEffect(() => {
    const subscriptions = [
      evacuationEvents$(siteId, live.machine$).subscribe((event) => actor.send(event)),
      failedNetworks$(siteId, client.evacuation(siteId)).subscribe(setFailedNetworks),
      live.siteLive$.subscribe(),
    ];
    return () => {
      for (const s of subscriptions) s.unsubscribe();
    };
  }, [live, siteId, actor, client]);

  const included$ = useMemo(
    () =>
      from(actor).pipe(
        map((snapshot) => snapshot.context.workers),
        distinctUntilChanged(),
        shareReplay({ bufferSize: 1, refCount: true }),
      ),
    [actor],
  );

  return { actor, siteLive$: live.siteLive$, included$, failedNetworks, unavailable: settingsError != null };
}
