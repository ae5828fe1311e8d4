import { Button, Tag } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../api/queryKeys';
import type { AssignmentKind } from '../../api/workforce/assignments';
import { can } from '../../domain/access';
import { calendarDateIn } from '../../domain/calendarDate';
import { formatAssignmentDate } from '../../domain/currentAssignment';
import type { WorkerNested } from '../../domain/workers';
import { useSession } from '../session/SessionProvider';
import { AssignWorkersDialog } from '../shared/AssignWorkersDialog';
import { assignmentHistory } from '../shared/assignForm';
import { useSelection } from '../shell/selection';

interface WorkerAssignmentsPanelProps {
  siteId: number;
  worker: WorkerNested | undefined;
  /** After an assignment: the worker and the lists are stale. */
  onChanged(): void;
}

interface Entry {
  name: string;
  /** YYYY-MM-DD */
  assigned_at: string;
}

function History({
  kind,
  entries,
  today,
}: {
  kind: AssignmentKind;
  entries: readonly Entry[];
  today: string;
}) {
  const { t } = useTranslation();
  const rows = assignmentHistory(entries, today);
  if (rows.length === 0)
    return (
      <p className="bp6-text-muted" data-testid={`worker-${kind}-none`}>
        {t(kind === 'crews' ? 'workforce.history.noCrew' : 'workforce.history.noWorkshift')}
      </p>
    );
  return (
    <ul className="sw-assign-history" data-testid={`worker-${kind}-history`}>
      {rows.map(({ assignment, position, current, upcoming }) => (
        <li
          key={position}
          className={current || upcoming ? undefined : 'bp6-text-muted'}
          data-testid={current ? `worker-${kind}-current` : `worker-${kind}-entry`}
        >
          <span className="sw-assign-history-name">{assignment.name}</span>
          <span dir="ltr" className="sw-assign-history-date">
            {formatAssignmentDate(assignment.assigned_at)}
          </span>
          {current && (
            <Tag minimal intent="success" round>
              {t('workforce.history.current')}
            </Tag>
          )}
          {upcoming && (
            <Tag minimal intent="primary" round>
              {t('workforce.history.upcoming')}
            </Tag>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * The worker's crews and work shifts: the current one (spec §3 rule, the site's today) and the
 * others with their dates (DD/MM/YYYY), and, for those who may, a crew or shift to assign.
 */
export function WorkerAssignmentsPanel({ siteId, worker, onChanged }: WorkerAssignmentsPanelProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const { site } = useSelection();
  const [assigning, setAssigning] = useState<AssignmentKind | null>(null);
  if (!worker) return null;
  const timeZone = site && site.id === siteId ? site.timezone : 'UTC';
  const today = calendarDateIn(timeZone);
  const canAssign = (kind: AssignmentKind) => (user ? can(user.user_role, 'write', kind) : false);
  const crews = worker.AssignedCrews.map((entry) => ({
    name: entry.crew_name,
    assigned_at: entry.assigned_at,
  }));
  const shifts = worker.AssignedWorkshifts.map((entry) => ({
    name: entry.workshift_name,
    assigned_at: entry.assigned_at,
  }));

  const section = (kind: AssignmentKind, entries: Entry[]) => (
    <div className="sw-assign-section" data-testid={`worker-${kind}`}>
      <div className="sw-assign-section-head">
        <h4 className="bp6-heading">
          {t(kind === 'crews' ? 'workforce.history.crews' : 'workforce.history.workshifts')}
        </h4>
        {canAssign(kind) && (
          <Button
            size="small"
            icon="add"
            text={t(kind === 'crews' ? 'workforce.history.assignCrew' : 'workforce.history.assignWorkshift')}
            onClick={() => setAssigning(kind)}
            data-testid={`worker-assign-${kind}`}
          />
        )}
      </div>
      <History kind={kind} entries={entries} today={today} />
    </div>
  );

  return (
    <section className="sw-worker-assignments" data-testid="worker-assignments">
      <h3 className="bp6-heading">{t('workforce.history.title')}</h3>
      {section('crews', crews)}
      {section('workshifts', shifts)}
      {assigning && (
        <AssignWorkersDialog
          siteId={siteId}
          timeZone={timeZone}
          kind={assigning}
          target={null}
          worker={{ id: worker.id, name: worker.name }}
          onClose={() => setAssigning(null)}
          onSaved={() => {
            setAssigning(null);
            void queryClient.invalidateQueries({ queryKey: queryKeys.workforce.latest(siteId) });
            onChanged();
          }}
        />
      )}
    </section>
  );
}
