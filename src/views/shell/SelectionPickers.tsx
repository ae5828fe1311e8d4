import { Button, HTMLSelect } from '@blueprintjs/core';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { can } from '../../domain/access';
import { useSession } from '../session/SessionProvider';
import { NewSiteDialog } from './NewSiteDialog';
import { useSelection } from './selection';

interface PickerProps {
  testId: string;
  label: string;
  emptyText: string;
  loading: boolean;
  options: readonly { id: number; name: string }[];
  value: number | null;
  onPick(id: number): void;
}

function Picker({ testId, label, emptyText, loading, options, value, onPick }: PickerProps) {
  const { t } = useTranslation();
  const id = useId();
  const empty = options.length === 0;
  return (
    <div className="sw-picker">
      <label className="sw-picker-label" htmlFor={id}>
        {label}
      </label>
      <HTMLSelect
        id={id}
        data-testid={testId}
        minimal
        disabled={loading || empty}
        value={value ?? ''}
        onChange={(event) => onPick(Number(event.currentTarget.value))}
      >
        {empty ? (
          <option value="">{loading ? t('common.loading') : emptyText}</option>
        ) : (
          options.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))
        )}
      </HTMLSelect>
    </div>
  );
}

/** Client, site and building pickers of the header, and the "New site" button for site creators. */
export function SelectionPickers() {
  const { t } = useTranslation();
  const { user } = useSession();
  const selection = useSelection();
  const [creatingSite, setCreatingSite] = useState(false);
  const mayCreateSite = user !== null && can(user.user_role, 'write', 'sites');

  return (
    <div className="sw-pickers">
      <Picker
        testId="client-picker"
        label={t('shell.client')}
        emptyText={t('shell.noClients')}
        loading={selection.loading.clients}
        options={selection.clients}
        value={selection.client?.id ?? null}
        onPick={selection.selectClient}
      />
      <Picker
        testId="site-picker"
        label={t('shell.site')}
        emptyText={t('shell.noSites')}
        loading={selection.loading.sites}
        options={selection.sites}
        value={selection.site?.id ?? null}
        onPick={selection.selectSite}
      />
      {mayCreateSite && (
        <Button
          icon="plus"
          variant="minimal"
          text={t('shell.newSite')}
          disabled={!selection.client}
          onClick={() => setCreatingSite(true)}
          data-testid="new-site"
        />
      )}
      <Picker
        testId="building-picker"
        label={t('shell.building')}
        emptyText={t('shell.noBuildings')}
        loading={selection.loading.buildings}
        options={selection.buildings}
        value={selection.building?.id ?? null}
        onPick={selection.selectBuilding}
      />
      {/* Mounted only while open, so each opening starts from a fresh form. */}
      {mayCreateSite && creatingSite && selection.client && (
        <NewSiteDialog
          isOpen
          client={selection.client}
          defaultTimezone={selection.site?.timezone}
          onClose={() => setCreatingSite(false)}
          onCreated={(site) => {
            setCreatingSite(false);
            selection.siteCreated(site);
          }}
        />
      )}
    </div>
  );
}
