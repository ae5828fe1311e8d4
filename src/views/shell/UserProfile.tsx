import { HTMLTable } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { ROLE_LABELS } from '../../domain/roles';
import type { ApiUser } from '../../domain/user';

/** The signed-in user's own details, shown in the side modal from the header. */
export function UserProfile({ user }: { user: ApiUser }) {
  const { t } = useTranslation();
  return (
    <HTMLTable compact className="sw-profile">
      <tbody>
        <tr>
          <th scope="row">{t('shell.profile.name')}</th>
          <td>{user.name}</td>
        </tr>
        <tr>
          <th scope="row">{t('shell.profile.email')}</th>
          <td dir="ltr">{user.email}</td>
        </tr>
        <tr>
          <th scope="row">{t('shell.profile.role')}</th>
          <td>{t(`shell.role.${user.user_role}`, { defaultValue: ROLE_LABELS[user.user_role] })}</td>
        </tr>
        <tr>
          <th scope="row">{t('shell.profile.language')}</th>
          <td>{user.locale === 'ar' ? 'العربية' : 'English'}</td>
        </tr>
      </tbody>
    </HTMLTable>
  );
}
