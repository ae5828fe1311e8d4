import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { SHORT_TOAST_MS } from '../../domain/messages';
import { dismissNotice, notify } from '../notify';

const OFFLINE_KEY = 'offline';

/**
 * Spec §4/§8: the browser going offline shows a persistent error notice; coming back online
 * replaces it with a success notice for one second.
 */
export function OfflineNotice(): null {
  const { t } = useTranslation();

  useEffect(() => {
    const showOffline = () => {
      void notify({ message: t('common.offline'), intent: 'danger', timeout: 0, key: OFFLINE_KEY });
    };
    const showOnline = () => {
      void dismissNotice(OFFLINE_KEY).then(() =>
        notify({ message: t('common.backOnline'), intent: 'success', timeout: SHORT_TOAST_MS }),
      );
    };
    if (typeof navigator !== 'undefined' && navigator.onLine === false) showOffline();
    window.addEventListener('offline', showOffline);
    window.addEventListener('online', showOnline);
    return () => {
      window.removeEventListener('offline', showOffline);
      window.removeEventListener('online', showOnline);
    };
  }, [t]);

  return null;
}
