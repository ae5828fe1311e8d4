import { Drawer, DrawerSize, HTMLTable, NonIdealState } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { latestAssignmentsQuery, type NamedItem } from '../../api/workforce';
import { formatAssignmentDate } from '../../domain/currentAssignment';
import { currentLocale } from '../../i18n';
import { useApi } from '../session/SessionProvider';
import { useSelection } from '../shell/selection';
import { type ExtraColumn, NameListScreen } from './NameListScreen';
import { crewSummaries, formatCount } from './workforceForm';

/** Crews (/crews): a site's crews with their current members and assignment dates (DD/MM/YYYY). */
export function CrewsScreen() {
  const { t } = useTranslation();
  const api = useApi();
  const { site } = useSelection();
  const siteId = site?.id ?? 0;
  const latest = useQuery({ ...latestAssignmentsQuery(api, siteId), enabled: siteId > 0 });
  const summaries = useMemo(() => crewSummaries(latest.data?.workers ?? []), [latest.data]);
  const [open, setOpen] = useState<NamedItem | null>(null);
  const locale = currentLocale();

  const columns: ExtraColumn[] = [
    {
      key: 'members',
      header: t('workforce.crews.members'),
      cell: (crew) => formatCount(summaries.get(crew.id)?.members.length ?? 0, locale),
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
      <Drawer
        isOpen={open !== null}
        onClose={() => setOpen(null)}
        title={open?.name}
        size={DrawerSize.SMALL}
        position={locale === 'ar' ? 'left' : 'right'}
      >
        <div className="sw-workforce-drawer" data-testid="crew-members">
          {members.length === 0 ? (
            <NonIdealState icon="people" description={t('workforce.crews.noMembers')} />
          ) : (
            <HTMLTable compact striped className="sw-workforce-table">
              <thead>
                <tr>
                  <th>{t('workforce.crews.worker')}</th>
                  <th>{t('workforce.crews.assignedAt')}</th>
                  <th>{t('workforce.crews.workshift')}</th>
                </tr>
              </thead>
              <tbody>
                {members.map((member) => (
                  <tr key={member.workerId}>
                    <td>{member.name}</td>
                    <td dir="ltr">{member.assignedAt ? formatAssignmentDate(member.assignedAt) : '-'}</td>
                    <td>{member.workshift ?? '-'}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          )}
        </div>
      </Drawer>
    </NameListScreen>
  );
}
