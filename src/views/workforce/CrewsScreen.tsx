import { Button, Tag } from '@blueprintjs/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import { latestAssignmentsQuery } from '../../api/workforce/assignments';
import { crewManagerUsersQuery, crewsWithManagersQuery } from '../../api/workforce/crewManagers';
import type { NamedItem } from '../../api/workforce/nameLists';
import { can } from '../../domain/access';
import { formatAssignmentDate } from '../../domain/currentAssignment';
import { formatCount } from '../../domain/numberFormat';
import { useApi, useSession } from '../session/SessionProvider';
import { AssignWorkersDialog } from '../shared/AssignWorkersDialog';
import { useSelection } from '../shell/selection';
import { CrewManagersDialog } from './CrewManagersDialog';
import { MembersDrawer } from './MembersDrawer';
import { MembersTable } from './MembersTable';
import { type ExtraColumn, NameListScreen } from './NameListScreen';
import { crewSummaries } from './workforceForm';

type Dialog = 'assign' | 'managers' | null;

/** Crews (/crews): a site's crews with their current members and assignment dates (DD/MM/YYYY). */
export function CrewsScreen() {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const { site } = useSelection();
  const siteId = site?.id ?? 0;
  const canAssign = user ? can(user.user_role, 'write', 'crews') : false;
  // Naming managers is for the admins: those who write crews and manage users (not crew managers).
  const canName = canAssign && (user ? can(user.user_role, 'write', 'users') : false);
  const latest = useQuery({ ...latestAssignmentsQuery(api, siteId), enabled: siteId > 0 });
  const summaries = useMemo(() => crewSummaries(latest.data?.workers ?? []), [latest.data]);
  const [open, setOpen] = useState<NamedItem | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const withManagers = useQuery({
    ...crewsWithManagersQuery(api, siteId),
    enabled: canName && open !== null,
  });
  const managerUsers = useQuery({
    ...crewManagerUsersQuery(api, siteId),
    enabled: canName && open !== null && site !== null,
  });
  const openCrew = open ? withManagers.data?.find((crew) => crew.id === open.id) : undefined;
  const managerNames = (openCrew?.manager_ids ?? []).map(
    (id) => managerUsers.data?.find((candidate) => candidate.id === id)?.name ?? `#${id}`,
  );

  const columns: ExtraColumn[] = [
    {
      key: 'members',
      header: t('workforce.crews.members'),
      cell: (crew) => formatCount(summaries.get(crew.id)?.members.length ?? 0),
    },
    {
      key: 'assigned',
      header: t('workforce.crews.lastAssigned'),
      cell: (crew) => {
        const date = summaries.get(crew.id)?.lastAssignedAt;
        return date ? <span dir="ltr">{formatAssignmentDate(date)}</span> : '-';
      },
    },
  ];
  const members = open ? (summaries.get(open.id)?.members ?? []) : [];

  return (
    <NameListScreen
      kind="crews"
      area="crews"
      titleKey="screen.crews"
      label="Crew"
      texts="workforce.crews"
      columns={columns}
      onOpen={setOpen}
    >
      <MembersDrawer
        title={open?.name ?? null}
        onClose={() => setOpen(null)}
        testId="crew-drawer"
        onAssign={canAssign ? () => setDialog('assign') : undefined}
        assignTestId="crew-assign"
      >
        {canName && (
          <section className="sw-assign-section" data-testid="crew-managers">
            <div className="sw-assign-section-head">
              <h4 className="bp6-heading">{t('workforce.managers.heading')}</h4>
              <Button
                variant="minimal"
                size="small"
                icon="edit"
                text={t('workforce.managers.edit')}
                disabled={!openCrew}
                onClick={() => setDialog('managers')}
                data-testid="crew-managers-edit"
              />
            </div>
            {managerNames.length === 0 ? (
              <span className="bp6-text-muted">{t('workforce.managers.none')}</span>
            ) : (
              <div className="sw-assign-picked" data-testid="crew-managers-list">
                {managerNames.map((name, index) => (
                  <Tag key={openCrew?.manager_ids[index]} minimal round icon="person">
                    {name}
                  </Tag>
                ))}
              </div>
            )}
          </section>
        )}
        <MembersTable
          members={members.map((member) => ({ ...member, other: member.workshift }))}
          otherHeader={t('workforce.crews.workshift')}
          empty={t('workforce.crews.noMembers')}
          testId="crew-members"
          rowTestId="crew-member"
        />
      </MembersDrawer>
      {dialog === 'assign' && open && site && (
        <AssignWorkersDialog
          siteId={site.id}
          timeZone={site.timezone}
          kind="crews"
          target={open}
          worker={null}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            void queryClient.invalidateQueries({ queryKey: queryKeys.workforce.latest(site.id) });
            void queryClient.invalidateQueries({ queryKey: queryKeys.workers.all });
          }}
        />
      )}
      {dialog === 'managers' && openCrew && site && (
        <CrewManagersDialog
          site={site}
          crew={openCrew}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            void queryClient.invalidateQueries({ queryKey: queryKeys.workforce.nameList(site.id, 'crews') });
          }}
        />
      )}
    </NameListScreen>
  );
}
