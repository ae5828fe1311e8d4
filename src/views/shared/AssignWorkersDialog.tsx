import { FormGroup, HTMLSelect, InputGroup, Spinner } from '@blueprintjs/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type AssignmentKind,
  type AssignResult,
  assignWorkers,
  type WorkerOption,
} from '../../api/workforce/assignments';
import { nameListQuery } from '../../api/workforce/nameLists';
import { workshiftsQuery } from '../../api/workforce/workshifts';
import './assignments.css';
import { calendarDateIn, isCalendarDate } from '../../domain/calendarDate';
import { formatAssignmentDate } from '../../domain/currentAssignment';
import { isDirty } from '../forms/isDirty';
import { serverProblem } from '../forms/serverProblem';
import { WorkforceDialog } from '../forms/WorkforceDialog';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';
import { type AssignForm, assignProblems } from './assignForm';
import { WorkerPicker } from './WorkerPicker';

interface Named {
  id: number;
  name: string;
}

export interface AssignWorkersDialogProps {
  siteId: number;
  /** The site's time zone: "assigned at" defaults to the site's today. */
  timeZone: string;
  kind: AssignmentKind;
  /** The crew or shift the workers go into; null lets the user pick one (the worker's page). */
  target: Named | null;
  /** The one worker to assign (the worker's page); null lets the user pick several. */
  worker: Named | null;
  onClose(): void;
  onSaved(result: AssignResult): void;
}

/**
 * Puts workers in a crew or a work shift from a date on: several workers picked by search into
 * a known crew or shift (the /crews and /workshifts screens), or one known worker into a crew or
 * shift picked from the site's (the worker's page).
 */
export function AssignWorkersDialog({
  siteId,
  timeZone,
  kind,
  target,
  worker,
  onClose,
  onSaved,
}: AssignWorkersDialogProps) {
  const { t } = useTranslation();
  const api = useApi();
  const id = useId();
  const picks = { workers: worker === null, target: target === null };
  const [initial] = useState<AssignForm>(() => ({
    workerIds: worker ? [worker.id] : [],
    targetId: target?.id ?? null,
    assignedAt: calendarDateIn(timeZone),
  }));
  const [form, setForm] = useState(initial);
  const [picked, setPicked] = useState<WorkerOption[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const crews = useQuery({
    ...nameListQuery(api, siteId, 'crews'),
    enabled: picks.target && kind === 'crews',
  });
  const shifts = useQuery({
    ...workshiftsQuery(api, siteId),
    enabled: picks.target && kind === 'workshifts',
  });
  const choices: Named[] | undefined = kind === 'crews' ? crews.data : shifts.data;
  const choicesPending = kind === 'crews' ? crews.isPending : shifts.isPending;

  const mutation = useMutation({
    mutationFn: (values: AssignForm) =>
      assignWorkers(api, siteId, kind, values.targetId ?? 0, {
        workerIds: values.workerIds,
        assigned_at: values.assignedAt.trim(),
      }),
    onSuccess: (result) => {
      void notify({ message: result.message, intent: 'success' });
      onSaved(result);
    },
  });
  const problems = submitted ? assignProblems(form, kind, picks) : {};
  const server = serverProblem(mutation.error, t('common.somethingWentWrong'));
  const dateError = problems.assignedAt ?? server.fields.assigned_at;
  // Field messages of fields this form has no input for (workerIds) show above the form.
  const general =
    server.general ??
    (Object.entries(server.fields)
      .filter(([key]) => key !== 'assigned_at')
      .map(([, message]) => message)
      .join(' ') ||
      null);

  const edit = (change: Partial<AssignForm>) => {
    setForm((draft) => ({ ...draft, ...change }));
    mutation.reset();
  };
  const targetLabel = t(kind === 'crews' ? 'workforce.assign.crew' : 'workforce.assign.workshift');
  const title = worker
    ? t(kind === 'crews' ? 'workforce.assign.crewFor' : 'workforce.assign.workshiftFor', {
        name: worker.name,
      })
    : t('workforce.assign.workersTo', { name: target?.name ?? '' });

  return (
    <WorkforceDialog
      title={title}
      dirty={isDirty(initial, form)}
      busy={mutation.isPending}
      error={general}
      submitText={t('workforce.assign.submit')}
      testId="assign-form"
      onClose={onClose}
      onSubmit={() => {
        setSubmitted(true);
        if (Object.keys(assignProblems(form, kind, picks)).length > 0) return;
        mutation.mutate(form);
      }}
    >
      {picks.workers && (
        <FormGroup
          label={t('workforce.assign.workers')}
          labelFor={`${id}-workers`}
          intent={problems.workerIds ? 'danger' : 'none'}
          helperText={problems.workerIds}
          data-testid="assign-workers"
        >
          <WorkerPicker
            siteId={siteId}
            id={`${id}-workers`}
            selected={picked}
            invalid={problems.workerIds !== undefined}
            onChange={(workers) => {
              setPicked(workers);
              edit({ workerIds: workers.map((one) => one.id) });
            }}
          />
        </FormGroup>
      )}
      {picks.target && (
        <FormGroup
          label={targetLabel}
          labelFor={`${id}-target`}
          intent={problems.targetId ? 'danger' : 'none'}
          helperText={problems.targetId}
        >
          {choicesPending ? (
            <Spinner size={20} />
          ) : (
            <HTMLSelect
              id={`${id}-target`}
              fill
              value={form.targetId === null ? '' : String(form.targetId)}
              onChange={(event) => {
                const value = event.currentTarget.value;
                edit({ targetId: value === '' ? null : Number(value) });
              }}
              data-testid="assign-target"
            >
              <option value="">
                {(choices ?? []).length === 0
                  ? t('workforce.assign.noneAvailable')
                  : t('workforce.assign.pick')}
              </option>
              {(choices ?? []).map((choice) => (
                <option key={choice.id} value={choice.id}>
                  {choice.name}
                </option>
              ))}
            </HTMLSelect>
          )}
        </FormGroup>
      )}
      <FormGroup
        label={t('workforce.assign.assignedAt')}
        labelFor={`${id}-date`}
        intent={dateError ? 'danger' : 'none'}
        helperText={
          dateError ??
          (isCalendarDate(form.assignedAt)
            ? t('workforce.assign.startsOn', { date: formatAssignmentDate(form.assignedAt) })
            : t('workforce.assign.assignedAtHint'))
        }
      >
        <InputGroup
          id={`${id}-date`}
          type="date"
          dir="ltr"
          value={form.assignedAt}
          intent={dateError ? 'danger' : 'none'}
          onValueChange={(value) => edit({ assignedAt: value })}
          data-testid="assign-date"
        />
      </FormGroup>
    </WorkforceDialog>
  );
}
