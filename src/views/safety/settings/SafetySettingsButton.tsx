import { Button } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiClient } from '../../../api/client';
import { can } from '../../../domain/access';
import type { Site } from '../../../domain/user';
import { useSession } from '../../session/SessionProvider';
import { SafetySettingsDialog } from './SafetySettingsDialog';

/** "Safety settings" for whoever may change them (the site's admins: the configuration area). */
export function SafetySettingsButton({ api, site }: { api: ApiClient; site: Site }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  if (!user || !can(user.user_role, 'write', 'configuration')) return null;
  return (
    <>
      <Button
        icon="cog"
        variant="minimal"
        text={t('safety.settings.open')}
        data-testid="safety-settings"
        onClick={() => setOpen(true)}
      />
      {open && <SafetySettingsDialog api={api} site={site} onClose={() => setOpen(false)} />}
    </>
  );
}
