import { can } from '../../domain/access';
import './workforce.css';
import { Button, HTMLTable } from '@blueprintjs/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { latestAssignmentsQuery } from '../../api/workforce/assignments';
import { type Workshift, workshiftsQuery } from '../../api/workforce/workshifts';
import { formatCount } from '../../domain/numberFormat';
import { currentLocale } from '../../i18n';
import { SiteListBody } from '../lists/SiteListBody';
import { ScreenTitle } from '../screens/ScreenTitle';
import { useApi, useSession } from '../session/SessionProvider';
import { AssignWorkersDialog } from '../shared/AssignWorkersDialog';
import { shiftMembers } from '../shared/assignForm';
import { useSelection } from '../shell/selection';
import { EditRowButton } from './EditRowButton';
import { MembersDrawer } from './MembersDrawer';
import { MembersTable } from './MembersTable';
import { WorkforceToolbar } from './WorkforceToolbar';
import { WorkshiftDialog } from './WorkshiftDialog';
import { matchesSearch, weekdayNames } from './workforceForm';

type Editing = { shift: Workshift | null } | null;

/** WorkShifts (/workshifts): a site's work shifts with their hours, breaks and days off. */
export function WorkshiftsScreen() {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const { site } = useSelection();
  const canWrite = user ? can(user.user_role, 'write', 'workshifts') : false;
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Editing>(null);
  const [open, setOpen] = useState<Workshift | null>(null);
  const [assigning, setAssigning] = useState<Workshift | null>(null);
  const siteId = site?.id ?? 0;
  const list = useQuery({ ...workshiftsQuery(api, siteId), enabled: siteId > 0 });
  const latest = useQuery({ ...latestAssignmentsQuery(api, siteId), enabled: siteId > 0 && open !== null });
  const members = useMemo(
    () => (open ? shiftMembers(latest.data?.workers ?? [], open.id) : []),
    [latest.data, open],
  );
  const shifts = (list.data ?? []).filter(
    (shift) => matchesSearch(shift.name, search) || matchesSearch(shift.category, search),
  );
  const locale = currentLocale();
  const days = weekdayNames(locale);
  const searching = search.trim() !== '';

  return (
    <section className="sw-workforce" data-testid="workforce-workshifts">
      <ScreenTitle>{t('screen.workshifts')}</ScreenTitle>
      <WorkforceToolbar
        search={search}
        onSearch={setSearch}
        count={
          list.data ? t('workforce.workshifts.count', { formatted: formatCount(list.data.length) }) : null
        }
        newText={canWrite && site ? t('workforce.workshifts.new') : null}
        onNew={() => setEditing({ shift: null })}
      />
      <SiteListBody
        noSite={t('workforce.noSite')}
        list={list}
        isEmpty={shifts.length === 0}
        empty={{
          testId: 'workforce-empty',
          icon: searching ? 'search' : 'time',
          title: searching ? t('workforce.noMatches') : t('workforce.workshifts.empty'),
          description: searching ? t('workforce.noMatchesHint') : undefined,
        }}
      >
        {() => (
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
                  <td>
                    <Button
                      variant="minimal"
                      size="small"
                      text={shift.name}
                      data-testid="workforce-open"
                      onClick={() => setOpen(shift)}
                    />
                  </td>
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
                        icon="new-person"
                        aria-label={t('workforce.assign.workersButton')}
                        title={t('workforce.assign.workersButton')}
                        data-testid="workshift-assign"
                        onClick={() => setAssigning(shift)}
                      />
                      <EditRowButton onClick={() => setEditing({ shift })} />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </SiteListBody>
      <MembersDrawer
        title={open?.name ?? null}
        onClose={() => setOpen(null)}
        testId="workshift-drawer"
        onAssign={canWrite && open ? () => setAssigning(open) : undefined}
        assignTestId="workshift-drawer-assign"
      >
        <MembersTable
          members={members.map((member) => ({ ...member, other: member.crew }))}
          otherHeader={t('workforce.workshifts.crew')}
          empty={t('workforce.workshifts.noMembers')}
          testId="workshift-members"
          rowTestId="workshift-member"
        />
      </MembersDrawer>
      {assigning && site && (
        <AssignWorkersDialog
          siteId={site.id}
          timeZone={site.timezone}
          kind="workshifts"
          target={assigning}
          worker={null}
          onClose={() => setAssigning(null)}
          onSaved={() => {
            setAssigning(null);
            void queryClient.invalidateQueries({ queryKey: queryKeys.workforce.latest(site.id) });
            void queryClient.invalidateQueries({ queryKey: queryKeys.workers.all });
          }}
        />
      )}
      {editing && site && (
        <WorkshiftDialog
          siteId={site.id}
          shift={editing.shift}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void queryClient.invalidateQueries({ queryKey: queryKeys.workforce.workshifts(site.id) });
          }}
        />
      )}
    </section>
  );
}
