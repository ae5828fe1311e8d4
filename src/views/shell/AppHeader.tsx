import { Icon } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { landingPath } from '../../domain/access';
import { ROLE_LABELS } from '../../domain/roles';
import type { ApiUser } from '../../domain/user';
import { LanguageSwitch } from './LanguageSwitch';
import { SelectionPickers } from './SelectionPickers';

/** The top bar: product name, client/site/building pickers, language, the user and logout. */
export function AppHeader({ user }: { user: ApiUser }) {
  const { t } = useTranslation();
  const role = user.user_role;
  return (
    <header className="sw-header">
      <Link to={landingPath(role)} className="sw-brand">
        <Icon icon="helper-management" />
        <span>{t('shell.appName')}</span>
      </Link>
      <SelectionPickers />
      <div className="sw-header-end">
        <LanguageSwitch />
        <div className="sw-user" data-testid="current-user">
          <span className="sw-user-name">{user.name}</span>
          <span className="sw-user-role" data-testid="current-role">
            {t(`shell.role.${role}`, { defaultValue: ROLE_LABELS[role] })}
          </span>
        </div>
        <Link to="/logout" className="sw-logout" data-testid="logout-link">
          <Icon icon="log-out" />
          <span>{t('shell.logout')}</span>
        </Link>
      </div>
    </header>
  );
}
