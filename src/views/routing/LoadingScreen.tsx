import { Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import '../shell/shell.css';

/** Shown while the session is restored (spec §2), so no route flashes before the user is known. */
export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <div className="sw-center sw-loading" data-testid="session-loading" role="status" aria-live="polite">
      <Spinner />
      <p>{t('shell.restoring')}</p>
    </div>
  );
}
