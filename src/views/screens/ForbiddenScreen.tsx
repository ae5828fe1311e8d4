import { NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { ScreenTitle } from './ScreenTitle';

/** /403: where a role lands on a route it may not open (spec §2, §8 "Not Authorized"). */
export function ForbiddenScreen({ homePath }: { homePath: string }) {
  const { t } = useTranslation();
  return (
    <section data-testid="forbidden">
      <ScreenTitle>{t('screen.forbidden.title')}</ScreenTitle>
      <NonIdealState
        icon="lock"
        description={t('screen.forbidden.description')}
        action={<Link to={homePath}>{t('screen.goHome')}</Link>}
      />
    </section>
  );
}
