import { Button, Callout, FileInput, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, type InputHTMLAttributes, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createWorker, editWorker, uploadWorkerPicture } from '../../api/workers/worker';
import { nameListQuery } from '../../api/workforce/nameLists';
import { can } from '../../domain/access';
import { messages } from '../../domain/messages';
import type { WorkerNested } from '../../domain/workers';
import {
  validateWorker,
  type WorkerFieldErrors,
  type WorkerFormInput,
  workerMessages,
} from '../../domain/workerValidation';
import { DiscardChangesAlert } from '../forms/DiscardChangesAlert';
import { isDirty } from '../forms/isDirty';
import { useApi, useSession } from '../session/SessionProvider';
import { pictureProblem, saveProblem } from './workerProblems';

interface WorkerFormProps {
  siteId: number;
  /** null creates a worker. */
  worker: WorkerNested | null;
  onSaved(workerId: number, message: string): void;
  /** Leave the form; a dirty form asks first (spec §8), a clean one leaves at once. */
  onCancel(): void;
  /** Whether the form differs from what it opened with, so the drawer can ask before it closes. */
  onDirtyChange?(dirty: boolean): void;
}

interface FormState {
  name: string;
  worker_tag_id: string;
  contact_number: string;
  helmet_color: string;
  worker_role_id: number | null;
  subcontractor_id: number | null;
}

function initial(worker: WorkerNested | null): FormState {
  return {
    name: worker?.name ?? '',
    worker_tag_id: worker?.worker_tag_id ?? '',
    contact_number: worker?.contact_number ?? '',
    helmet_color: worker?.helmet_color ?? '',
    worker_role_id: worker?.worker_role_id ?? null,
    subcontractor_id: worker?.subcontractor_id ?? null,
  };
}

const PICTURE_INPUT: InputHTMLAttributes<HTMLInputElement> & { 'data-testid': string } = {
  accept: 'image/png,image/jpeg',
  'data-testid': 'worker-field-picture',
};

const idOf = (value: string): number | null => (value === '' ? null : Number(value));

/** Create or edit a worker, with its picture; the rules are the server's (validateWorker). */
export function WorkerForm({ siteId, worker, onSaved, onCancel, onDirtyChange }: WorkerFormProps) {
  const { t } = useTranslation();
  const api = useApi();
  const { user } = useSession();
  const role = user?.user_role;
  // Role and subcontractor lists are admin areas; others keep the worker's current values.
  const roles = useQuery({
    ...nameListQuery(api, siteId, 'worker-roles'),
    enabled: role !== undefined && can(role, 'open', 'workerRoles'),
  });
  const subcontractors = useQuery({
    ...nameListQuery(api, siteId, 'subcontractors'),
    enabled: role !== undefined && can(role, 'open', 'subcontractors'),
  });
  const [opened] = useState<FormState>(() => initial(worker));
  const [form, setForm] = useState<FormState>(opened);
  const [picture, setPicture] = useState<File | null>(null);
  const [errors, setErrors] = useState<WorkerFieldErrors & { picture?: string }>({});
  const [general, setGeneral] = useState<string | null>(null);
  const createdId = useRef<number | null>(null);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const dirty = picture !== null || isDirty(opened, form);
  const reportDirty = useRef(onDirtyChange);
  reportDirty.current = onDirtyChange;
  useEffect(() => reportDirty.current?.(dirty), [dirty]);
  // A form that goes away (saved, or left) has nothing left to lose.
  useEffect(() => () => reportDirty.current?.(false), []);

  const save = useMutation({
    mutationFn: async (input: WorkerFormInput) => {
      const { fields } = validateWorker(input);
      if (!fields) throw new Error('invalid');
      let id: number;
      let message: string;
      // After a create whose picture upload failed, saving again edits that worker, never a second one.
      const existingId = worker?.id ?? createdId.current;
      if (existingId !== null) {
        await editWorker(api, siteId, existingId, fields);
        id = existingId;
        message = worker ? workerMessages.updated : messages.created(workerMessages.label);
      } else {
        id = (await createWorker(api, siteId, fields)).id;
        createdId.current = id;
        message = messages.created(workerMessages.label);
      }
      if (picture) await uploadWorkerPicture(api, siteId, id, picture);
      return { id, message };
    },
    onSuccess: ({ id, message }) => onSaved(id, message),
    onError: (error) => {
      const problem = saveProblem(error, t('common.somethingWentWrong'));
      setErrors(problem.fields);
      setGeneral(problem.general);
    },
  });

  const cancel = () => {
    if (save.isPending) return;
    if (dirty) setConfirmingCancel(true);
    else onCancel();
  };

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const { errors: found } = validateWorker(form);
    const pictureError = picture ? pictureProblem(picture) : null;
    const all = pictureError ? { ...found, picture: pictureError } : found;
    setErrors(all);
    setGeneral(null);
    if (Object.keys(all).length === 0) save.mutate(form);
  };

  const field = (
    key: 'name' | 'worker_tag_id' | 'contact_number' | 'helmet_color',
    inputMode?: 'numeric',
  ) => (
    <FormGroup
      label={key === 'helmet_color' ? t('workers.helmet.color') : t(`workers.field.${key}`)}
      labelFor={`worker-${key}`}
      intent={errors[key] ? 'danger' : 'none'}
      helperText={errors[key]}
    >
      <InputGroup
        id={`worker-${key}`}
        value={form[key]}
        inputMode={inputMode}
        dir={key === 'contact_number' ? 'ltr' : undefined}
        intent={errors[key] ? 'danger' : 'none'}
        onValueChange={(value) => set(key, value)}
        data-testid={`worker-field-${key}`}
      />
    </FormGroup>
  );

  const select = (
    key: 'worker_role_id' | 'subcontractor_id',
    label: string,
    options: readonly { id: number; name: string }[],
    current: string | null,
  ) => {
    // The worker's current value stays pickable even when its list is not readable here.
    const list =
      options.length === 0 && form[key] !== null && current ? [{ id: form[key], name: current }] : options;
    return (
      <FormGroup label={label} labelFor={`worker-${key}`}>
        <HTMLSelect
          id={`worker-${key}`}
          fill
          value={form[key] === null ? '' : String(form[key])}
          onChange={(event) => set(key, idOf(event.currentTarget.value))}
          data-testid={`worker-field-${key}`}
        >
          <option value="">{t('workers.field.none')}</option>
          {list.map((item) => (
            <option key={item.id} value={item.id}>
              {item.name}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
    );
  };

  return (
    <form onSubmit={submit} noValidate className="sw-worker-form" data-testid="worker-form">
      {general && (
        <Callout intent="danger" compact data-testid="worker-form-error">
          {general}
        </Callout>
      )}
      {field('name')}
      {field('worker_tag_id')}
      {field('contact_number', 'numeric')}
      {field('helmet_color')}
      {select(
        'worker_role_id',
        t('workers.field.worker_role'),
        roles.data ?? [],
        worker?.WorkerRole?.name ?? null,
      )}
      {select(
        'subcontractor_id',
        t('workers.field.subcontractor'),
        subcontractors.data ?? [],
        worker?.Subcontractor?.name ?? null,
      )}
      <FormGroup
        label={t('workers.field.picture')}
        helperText={errors.picture ?? t('workers.field.pictureHint')}
        intent={errors.picture ? 'danger' : 'none'}
      >
        <FileInput
          fill
          text={picture?.name ?? t('workers.field.picture')}
          inputProps={PICTURE_INPUT}
          onInputChange={(event) => {
            const file = event.currentTarget.files?.[0] ?? null;
            const problem = file ? pictureProblem(file) : null;
            setPicture(file);
            setErrors(({ picture: _old, ...rest }) => (problem ? { ...rest, picture: problem } : rest));
          }}
        />
      </FormGroup>
      <div className="sw-worker-form-actions">
        <Button
          text={t('common.cancel')}
          onClick={cancel}
          disabled={save.isPending}
          data-testid="worker-form-cancel"
        />
        <Button
          type="submit"
          intent="primary"
          loading={save.isPending}
          text={worker ? t('workers.save') : t('common.create')}
          data-testid="worker-form-submit"
        />
      </div>
      <DiscardChangesAlert
        isOpen={confirmingCancel}
        onProceed={() => {
          setConfirmingCancel(false);
          onCancel();
        }}
        onStay={() => setConfirmingCancel(false)}
      />
    </form>
  );
}
