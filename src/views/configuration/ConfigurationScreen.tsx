import './configuration.css';
import { Card, Icon, type IconName } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Area } from '../../domain/access';
import { can } from '../../domain/access';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useSession } from '../session/SessionProvider';

interface ConfigurationPage {
  path: string;
  area: Area;
  icon: IconName;
  /** i18n keys of the card: its title and what the page is for. */
  title: string;
  description: string;
}

const PAGES: readonly ConfigurationPage[] = [
  {
    path: '/configuration/workerRoles',
    area: 'workerRoles',
    icon: 'hat',
    title: 'screen.workerRoles',
    description: 'configuration.cards.workerRoles',
  },
  {
    path: '/configuration/subContractors',
    area: 'subcontractors',
    icon: 'office',
    title: 'screen.subcontractors',
    description: 'configuration.cards.subcontractors',
  },
  {
    path: '/configuration/bulkUploads',
    area: 'bulkUploads',
    icon: 'th-derived',
    title: 'screen.bulkUploads',
    description: 'configuration.cards.bulkUploads',
  },
];

/** Configurations (/configuration): a card for each of its pages, saying what it is for. */
export function ConfigurationScreen() {
  const { t } = useTranslation();
  const { user } = useSession();
  const pages = PAGES.filter((page) => (user ? can(user.user_role, 'open', page.area) : false));
  return (
    <section className="sw-configuration" data-testid="configuration">
      <ScreenTitle>{t('screen.configuration')}</ScreenTitle>
      <p className="sw-configuration-intro">{t('configuration.intro')}</p>
      <ul className="sw-configuration-cards">
        {pages.map((page) => (
          <li key={page.path}>
            <Link href={page.path} className="sw-configuration-link" data-testid="configuration-card">
              <Card interactive className="sw-configuration-card">
                <Icon icon={page.icon} size={24} aria-hidden />
                <h2 className="bp6-heading">{t(page.title)}</h2>
                <p>{t(page.description)}</p>
              </Card>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
