import { Callout, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { map, NEVER, shareReplay } from 'rxjs';
import { floorQuery } from '../../api/floors';
import { can } from '../../domain/access';
import type { WorkerOnMap } from '../../domain/inventory';
import { relativeTimeOf, type WorkerNested } from '../../domain/workers';
import { currentLocale } from '../../i18n';
import { LiveFloorPlan } from '../canvas/LiveFloorPlan';
import { useLiveWorkers } from '../canvas/useLiveWorkers';
import { useApi, useSession } from '../session/SessionProvider';
import { asWorkerMap, followHelmet$, lastSeenFloor, lastSeenMarker } from './lastSeen';

interface LastSeenMapProps {
  siteId: number;
  worker: WorkerNested;
  /** The live state lost the helmet (it moved to another floor): the worker is stale. */
  onLeftFloor(): void;
}

/**
 * The worker's helmet on its floor's blueprint, small, with its floor, zone and when it was
 * last seen below. It starts from the worker's reply and follows the floor's live stream; a worker
 * without a helmet or a position gets a sentence, not an empty canvas.
 */
export function LastSeenMap({ siteId, worker, onLeftFloor }: LastSeenMapProps) {
  const { t } = useTranslation();
  const api = useApi();
  const role = useSession().user?.user_role;
  // The blueprint and zones are the floor-plan readers' (DESIGN §4): others get the words only.
  const mayDraw = role !== undefined && (can(role, 'open', 'maps') || can(role, 'open', 'evacuation'));
  const place = lastSeenFloor(worker);
  const seed = useMemo(() => lastSeenMarker(worker), [worker]);
  const drawing = mayDraw && place !== null && seed !== null;
  const floor = useQuery({
    ...floorQuery(api, place?.buildingId ?? 0, place?.floorId ?? 0),
    enabled: drawing,
  });
  const live = useLiveWorkers(siteId, place?.floorId ?? null, drawing);
  const marker$ = useMemo(
    () =>
      seed ? followHelmet$(seed, live.workers$).pipe(shareReplay({ bufferSize: 1, refCount: true })) : NEVER,
    [seed, live.workers$],
  );
  const workers$ = useMemo(() => marker$.pipe(map(asWorkerMap)), [marker$]);
  const [marker, setMarker] = useState<WorkerOnMap | null>(seed);
  // The drawer's refetch is a new function each render: read through a ref, never a resubscription.
  const leftFloor = useRef(onLeftFloor);
  leftFloor.current = onLeftFloor;
  useEffect(() => {
    setMarker(seed);
    const subscription = marker$.subscribe((next) => {
      setMarker(next);
      if (next === null) leftFloor.current();
    });
    return () => subscription.unsubscribe();
  }, [marker$, seed]);

  const placeholder = t('workers.placeholder');
  const locale = currentLocale();
  let content: ReactNode;
  if (worker.inventory_id === null) {
    content = <p className="bp6-text-muted">{t('workers.lastSeen.noHelmet')}</p>;
  } else if (!place || !seed) {
    content = <p className="bp6-text-muted">{t('workers.lastSeen.noPosition')}</p>;
  } else {
    const shown = marker ?? seed;
    content = (
      <>
        {drawing && floor.isPending && <Spinner size={20} aria-label={t('common.loading')} />}
        {drawing && floor.isError && (
          <Callout intent="danger" compact icon="error" data-testid="worker-last-seen-error">
            {floor.error.message}
          </Callout>
        )}
        {drawing && floor.data && (
          <LiveFloorPlan
            key={floor.data.id}
            floor={floor.data}
            workers$={workers$}
            classPrefix="sw-worker-lastseen"
            testId="worker-last-seen-canvas"
          />
        )}
        <dl className="sw-worker-fields sw-worker-lastseen-fields">
          <div>
            <dt>{t('workers.column.floor')}</dt>
            <dd data-testid="worker-last-seen-floor">
              {shown.blueprint_name ?? floor.data?.name ?? placeholder}
            </dd>
          </div>
          <div>
            <dt>{t('workers.column.zone')}</dt>
            <dd data-testid="worker-last-seen-zone">{shown.zone_name ?? placeholder}</dd>
          </div>
          <div>
            <dt>{t('workers.column.last_seen')}</dt>
            <dd data-testid="worker-last-seen-time">
              {relativeTimeOf(shown.last_seen, new Date(), locale) ?? placeholder}
            </dd>
          </div>
        </dl>
      </>
    );
  }

  return (
    <section className="sw-worker-section sw-worker-lastseen" data-testid="worker-last-seen">
      <h3 className="bp6-heading">{t('workers.lastSeen.title')}</h3>
      {content}
    </section>
  );
}
