import { Icon } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { landingPath } from '../../domain/access';
import { ROLE_LABELS } from '../../domain/roles';
import type { ApiUser } from '../../domain/user';
import { LanguageSwitch } from './LanguageSwitch';
import { SelectionPickers } from './SelectionPickers';
import { useSideModal } from './SideModal';
import { UserProfile } from './UserProfile';

/** The top bar: product name, client/site/building pickers, language, the user and logout. */
export function AppHeader({
  user,
  menuOpen,
  onToggleMenu,
}: {
  user: ApiUser;
  menuOpen: boolean;
  onToggleMenu(): void;
}) {
  const { t } = useTranslation();
  const role = user.user_role;
  const sideModal = useSideModal();
  return (
    <header className="sw-header">
      <button
        type="button"
        className="sw-menu-toggle"
        aria-expanded={menuOpen}
        aria-label={t('menu.label')}
        onClick={onToggleMenu}
        data-testid="menu-toggle"
      >
        <Icon icon={menuOpen ? 'cross' : 'menu'} />
      </button>
      <Link to={landingPath(role)} className="sw-brand">
        <Icon icon="helper-management" />
        <span>{t('shell.appName')}</span>
      </Link>
      <SelectionPickers />
      <div className="sw-header-end">
        <LanguageSwitch />
        <button
          type="button"
          className="sw-user"
          data-testid="current-user"
          title={t('shell.profile.title')}
          onClick={() =>
            sideModal.open({ title: t('shell.profile.title'), content: <UserProfile user={user} /> })
          }
        >
          <span className="sw-user-name">{user.name}</span>
          <span className="sw-user-role" data-testid="current-role">
            {t(`shell.role.${role}`, { defaultValue: ROLE_LABELS[role] })}
          </span>
        </button>
        <Link to="/logout" className="sw-logout" data-testid="logout-link">
          <Icon icon="log-out" />
          <span>{t('shell.logout')}</span>
        </Link>
      </div>
    </header>
  );
}
