import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { liveSettingsQuery, liveUrl } from '../../../api/live';
import { safetyKeys } from '../../../api/safety';
import { openSafetyChannel } from '../../../api/safetySocket';
import { useApi } from '../../session/SessionProvider';
import { browserStorage, readToken } from '../../session/storedSession';

const getToken = () => readToken(browserStorage());

/**
 * Refreshes the incident lists when the site's socket announces new incidents (`safetyEvents`),
 * and after every reconnect (whatever was said while away is lost), so an SOS shows without a
 * reload. The socket lives as long as the screen.
 */
export function useIncidentFeed(siteId: number): void {
  const api = useApi();
  const queryClient = useQueryClient();
  const settings = useQuery(liveSettingsQuery(api));
  useEffect(() => {
    if (!settings.data) return;
    const channel = openSafetyChannel({ url: liveUrl(window.location, settings.data), getToken, siteId });
    let connectedBefore = false;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: safetyKeys.allIncidents });
    const subscription = channel.events$.subscribe((event) => {
      if (event.type === 'safetyEvents' && event.batch.siteId === siteId) refresh();
      if (event.type === 'connection' && event.state === 'live') {
        if (connectedBefore) refresh();
        connectedBefore = true;
      }
    });
    return () => subscription.unsubscribe();
  }, [queryClient, settings.data, siteId]);
}
