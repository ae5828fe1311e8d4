import { type Intent, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { UserStatus } from '../../domain/user';

const INTENTS: Record<UserStatus, Intent> = { active: 'success', inactive: 'none', invited: 'primary' };

/** A user's status (spec §4) as a coloured tag. */
export function StatusTag({ status }: { status: UserStatus }) {
  const { t } = useTranslation();
  return (
    <Tag minimal intent={INTENTS[status]} data-testid="users-status" data-status={status}>
      {t(`users.status.${status}`)}
    </Tag>
  );
}
