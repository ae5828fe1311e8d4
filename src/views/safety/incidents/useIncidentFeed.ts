import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { queryKeys } from '../../../api/queryKeys';
import { useLiveClient } from '../../session/LiveProvider';

/**
 * Refreshes the incident lists when the site's incident feed announces new incidents
 * (`safetyEvents`), and after every reconnect (whatever was said while away is lost), so an SOS
 * shows without a reload. The feed is held as long as the screen.
 */
export function useIncidentFeed(siteId: number): void {
  const client = useLiveClient();
  const queryClient = useQueryClient();
  useEffect(() => {
    let connectedBefore = false;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.safety.allIncidents });
    const subscription = client.incidents(siteId).subscribe((event) => {
      if (event.type === 'safetyEvents' && event.batch.siteId === siteId) refresh();
      if (event.type === 'connection' && event.state === 'live') {
        if (connectedBefore) refresh();
        connectedBefore = true;
      }
    });
    return () => subscription.unsubscribe();
  }, [client, queryClient, siteId]);
}
