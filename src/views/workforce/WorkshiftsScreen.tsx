import { can } from '../../domain/access';
import './workforce.css';
import { Button, HTMLTable, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Workshift, workforceKeys, workshiftsQuery } from '../../api/workforce';
import { currentLocale } from '../../i18n';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi, useSession } from '../session/SessionProvider';
import { useSelection } from '../shell/selection';
import { WorkshiftDialog } from './WorkshiftDialog';
import { formatCount, matchesSearch, weekdayNames } from './workforceForm';

type Editing = { shift: Workshift | null } | null;

/** WorkShifts (/workshifts): a site's work shifts with their hours, breaks and days off. */
export function WorkshiftsScreen() {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const { site, loading } = useSelection();
  const canWrite = user ? can(user.user_role, 'write', 'workshifts') : false;
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Editing>(null);
  const siteId = site?.id ?? 0;
  const list = useQuery({ ...workshiftsQuery(api, siteId), enabled: siteId > 0 });
  const shifts = (list.data ?? []).filter(
    (shift) => matchesSearch(shift.name, search) || matchesSearch(shift.category, search),
  );
  const locale = currentLocale();
  const days = weekdayNames(locale);

  let body: ReactNode;
  if (!site) {
    body =
      loading.clients || loading.sites ? (
        <Spinner aria-label={t('common.loading')} />
      ) : (
        <NonIdealState icon="office" description={t('workforce.noSite')} />
      );
  } else if (list.isPending) {
    body = <Spinner aria-label={t('common.loading')} />;
  } else if (list.isError) {
    body = (
      <NonIdealState
        icon="error"
        description={t('common.somethingWentWrong')}
        action={<Button text={t('common.retry')} onClick={() => void list.refetch()} />}
      />
    );
  } else if (shifts.length === 0) {
    body = (
      <div data-testid="workforce-empty">
        <NonIdealState
          icon={search.trim() ? 'search' : 'time'}
          title={search.trim() ? t('workforce.noMatches') : t('workforce.workshifts.empty')}
          description={search.trim() ? t('workforce.noMatchesHint') : undefined}
        />
      </div>
    );
  } else {
    body = (
      <HTMLTable striped interactive className="sw-workforce-table" data-testid="workforce-list">
        <thead>
          <tr>
            <th>{t('workforce.name')}</th>
            <th>{t('workforce.workshifts.category')}</th>
            <th>{t('workforce.workshifts.hours')}</th>
            <th>{t('workforce.workshifts.breaks')}</th>
            <th>{t('workforce.workshifts.nonWorkingDays')}</th>
            {canWrite && <th className="sw-workforce-actions">{t('workforce.actions')}</th>}
          </tr>
        </thead>
        <tbody>
          {shifts.map((shift) => (
            <tr key={shift.id} data-testid="workforce-row">
              <td>{shift.name}</td>
              <td>{shift.category || '-'}</td>
              <td dir="ltr">
                {shift.start} – {shift.end}
              </td>
              <td dir="ltr">
                {shift.breaks.length === 0
                  ? '-'
                  : shift.breaks.map((pause) => `${pause.start}–${pause.end}`).join(', ')}
              </td>
              <td>{shift.non_working_days.map((day) => days[day] ?? String(day)).join('، ') || '-'}</td>
              {canWrite && (
                <td className="sw-workforce-actions">
                  <Button
                    small
                    minimal
                    icon="edit"
                    aria-label={t('workforce.edit')}
                    data-testid="workforce-edit"
                    onClick={() => setEditing({ shift })}
                  />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    );
  }

  return (
    <section className="sw-workforce" data-testid="workforce-workshifts">
      <ScreenTitle>{t('screen.workshifts')}</ScreenTitle>
      <div className="sw-workforce-toolbar">
        <InputGroup
          type="search"
          leftIcon="search"
          placeholder={t('workforce.search')}
          value={search}
          onValueChange={setSearch}
          data-testid="workforce-search"
          className="sw-workforce-search"
        />
        {list.data && (
          <Tag minimal round data-testid="workforce-count">
            {t('workforce.workshifts.count', { formatted: formatCount(list.data.length, locale) })}
          </Tag>
        )}
        {canWrite && site && (
          <Button
            intent="primary"
            icon="add"
            text={t('workforce.workshifts.new')}
            data-testid="workforce-new"
            onClick={() => setEditing({ shift: null })}
          />
        )}
      </div>
      {body}
      {editing && site && (
        <WorkshiftDialog
          siteId={site.id}
          shift={editing.shift}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void queryClient.invalidateQueries({ queryKey: workforceKeys.workshifts(site.id) });
          }}
        />
      )}
    </section>
  );
}
