import { NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { ScreenTitle } from './ScreenTitle';

export function NotFoundScreen({ homePath }: { homePath: string }) {
  const { t } = useTranslation();
  return (
    <section data-testid="not-found">
      <ScreenTitle>{t('screen.notFound.title')}</ScreenTitle>
      <NonIdealState
        icon="search-template"
        description={t('screen.notFound.description')}
        action={<Link to={homePath}>{t('screen.goHome')}</Link>}
      />
    </section>
  );
}
