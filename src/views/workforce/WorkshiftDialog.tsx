import { Button, Callout, Checkbox, FormGroup, InputGroup } from '@blueprintjs/core';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createWorkshift, editWorkshift, type Workshift } from '../../api/workforce/workshifts';
import { messages } from '../../domain/messages';
import { currentLocale } from '../../i18n';
import { isDirty } from '../forms/isDirty';
import { serverProblem } from '../forms/serverProblem';
import { WorkforceDialog } from '../forms/WorkforceDialog';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';
import {
  hasProblems,
  type WorkshiftForm,
  weekdayNames,
  workshiftBody,
  workshiftForm,
  workshiftProblems,
} from './workforceForm';

interface WorkshiftDialogProps {
  siteId: number;
  /** The shift to edit; null creates one. */
  shift: Workshift | null;
  onClose(): void;
  onSaved(shift: Workshift): void;
}

/** Create or edit a work shift: name, category, non-working days, start, end and breaks. */
export function WorkshiftDialog({ siteId, shift, onClose, onSaved }: WorkshiftDialogProps) {
  const { t } = useTranslation();
  const api = useApi();
  const id = useId();
  const [initial] = useState(() => workshiftForm(shift));
  const [form, setForm] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  const mutation = useMutation({
    mutationFn: (values: WorkshiftForm) =>
      shift
        ? editWorkshift(api, siteId, shift.id, workshiftBody(values))
        : createWorkshift(api, siteId, workshiftBody(values)),
    onSuccess: (saved) => {
      void notify({
        message: shift ? t('workforce.updated', { label: saved.name }) : messages.created('Workshift'),
        intent: 'success',
      });
      onSaved(saved);
    },
  });
  const problems = workshiftProblems(form);
  const server = serverProblem(mutation.error, t('common.somethingWentWrong'));
  const fieldError = (key: string) => (submitted ? problems.fields[key] : undefined) ?? server.fields[key];
  // Break rules show as soon as both times of every break are filled in, as the user types.
  const breakErrors = [...problems.breaks];
  if (server.fields.breaks && !breakErrors.includes(server.fields.breaks))
    breakErrors.push(server.fields.breaks);
  const days = weekdayNames(currentLocale());

  const edit = (change: (draft: WorkshiftForm) => WorkshiftForm) => {
    setForm(change);
    mutation.reset();
  };
  const setBreak = (index: number, part: 'start' | 'end', value: string) =>
    edit((draft) => ({
      ...draft,
      breaks: draft.breaks.map((pause, i) => (i === index ? { ...pause, [part]: value } : pause)),
    }));

  const field = (
    key: string,
    label: string,
    value: string,
    onChange: (value: string) => void,
    type = 'text',
  ) => {
    const error = fieldError(key);
    return (
      <FormGroup
        key={key}
        label={label}
        labelFor={`${id}-${key}`}
        intent={error ? 'danger' : 'none'}
        helperText={error}
      >
        <InputGroup
          id={`${id}-${key}`}
          name={key}
          type={type}
          value={value}
          intent={error ? 'danger' : 'none'}
          data-testid={`workshift-field-${key}`}
          onValueChange={onChange}
        />
      </FormGroup>
    );
  };

  return (
    <WorkforceDialog
      title={t(shift ? 'workforce.workshifts.edit' : 'workforce.workshifts.new')}
      dirty={isDirty(initial, form)}
      busy={mutation.isPending}
      error={server.general}
      submitText={shift ? t('workforce.save') : t('common.create')}
      testId="workshift-form"
      onClose={onClose}
      onSubmit={() => {
        setSubmitted(true);
        if (hasProblems(problems)) return;
        mutation.mutate(form);
      }}
    >
      {field('name', t('workforce.name'), form.name, (name) => edit((d) => ({ ...d, name })))}
      {field('category', t('workforce.workshifts.category'), form.category, (category) =>
        edit((d) => ({ ...d, category })),
      )}
      <div className="sw-workforce-row">
        {field(
          'start',
          t('workforce.workshifts.start'),
          form.start,
          (start) => edit((d) => ({ ...d, start })),
          'time',
        )}
        {field('end', t('workforce.workshifts.end'), form.end, (end) => edit((d) => ({ ...d, end })), 'time')}
      </div>
      <FormGroup label={t('workforce.workshifts.nonWorkingDays')}>
        <div className="sw-workforce-days">
          {days.map((dayName, day) => (
            <Checkbox
              key={dayName}
              label={dayName}
              checked={form.nonWorkingDays.includes(day)}
              data-testid={`workshift-day-${day}`}
              onChange={(event) => {
                const on = event.currentTarget.checked;
                edit((d) => ({
                  ...d,
                  nonWorkingDays: on
                    ? [...d.nonWorkingDays, day].sort((a, b) => a - b)
                    : d.nonWorkingDays.filter((other) => other !== day),
                }));
              }}
            />
          ))}
        </div>
      </FormGroup>
      <FormGroup label={t('workforce.workshifts.breaks')}>
        {form.breaks.map((pause, index) => (
          // Breaks have no identity of their own; their position is their key.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <div className="sw-workforce-break" key={index} data-testid="workshift-break">
            {field(
              `breaks.${index}.start`,
              t('workforce.workshifts.breakStart'),
              pause.start,
              (value) => setBreak(index, 'start', value),
              'time',
            )}
            {field(
              `breaks.${index}.end`,
              t('workforce.workshifts.breakEnd'),
              pause.end,
              (value) => setBreak(index, 'end', value),
              'time',
            )}
            <Button
              minimal
              icon="trash"
              aria-label={t('workforce.workshifts.removeBreak')}
              data-testid="workshift-break-remove"
              onClick={() => edit((d) => ({ ...d, breaks: d.breaks.filter((_, i) => i !== index) }))}
            />
          </div>
        ))}
        <Button
          icon="add"
          text={t('workforce.workshifts.addBreak')}
          data-testid="workshift-break-add"
          onClick={() => edit((d) => ({ ...d, breaks: [...d.breaks, { start: '', end: '' }] }))}
        />
      </FormGroup>
      {breakErrors.length > 0 && (
        <Callout intent="danger" compact data-testid="workshift-break-errors">
          <ul className="sw-workforce-problems">
            {breakErrors.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </Callout>
      )}
    </WorkforceDialog>
  );
}
