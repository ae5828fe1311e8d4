import { NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { ScreenRoute } from '../../domain/routes';
import { ScreenTitle } from './ScreenTitle';

/** A screen whose content a later issue fills: its title and a clear "nothing here yet". */
export function ScreenPlaceholder({ route }: { route: ScreenRoute }) {
  const { t } = useTranslation();
  return (
    <section data-testid="screen-placeholder">
      <ScreenTitle>{t(route.titleKey)}</ScreenTitle>
      <NonIdealState
        icon="build"
        title={t('screen.placeholder.title')}
        description={t('screen.placeholder.description')}
      />
    </section>
  );
}
