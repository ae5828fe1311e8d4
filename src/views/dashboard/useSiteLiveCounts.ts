import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { asyncScheduler, map, type Observable, skip, throttleTime } from 'rxjs';
import { queryKeys } from '../../api/queryKeys';
import { onlineActiveByFloor } from '../../streams/onlineActiveByFloor';
import type { WorkerMap } from '../../streams/workerMapState';

/** The counts follow the live stream without reloads, but redraw at most this often. */
const COUNTS_EVERY_MS = 1000;
/** The asset counts come from the server; ask again at most this often while updates arrive. */
const REFETCH_EVERY_MS = 2000;

/**
 * Online-active workers per floor, recomputed from the site's live helmets (null until the first
 * snapshot), and the site's asset counts refetched, throttled, whenever the helmets change.
 */
export function useSiteLiveCounts(
  siteId: number,
  site$: Observable<WorkerMap>,
): ReadonlyMap<number, number> | null {
  const queryClient = useQueryClient();
  const [counts, setCounts] = useState<ReadonlyMap<number, number> | null>(null);

  useEffect(() => {
    setCounts(null);
    const subscriptions = [
      site$
        .pipe(
          throttleTime(COUNTS_EVERY_MS, asyncScheduler, { leading: true, trailing: true }),
          map((workers) => onlineActiveByFloor(workers.values())),
        )
        .subscribe(setCounts),
      site$
        .pipe(skip(1), throttleTime(REFETCH_EVERY_MS, asyncScheduler, { leading: true, trailing: true }))
        .subscribe(() =>
          queryClient.invalidateQueries({ queryKey: queryKeys.inventory.meta('sites', siteId) }),
        ),
    ];
    return () => {
      for (const s of subscriptions) s.unsubscribe();
    };
  }, [queryClient, siteId, site$]);

  return counts;
}
