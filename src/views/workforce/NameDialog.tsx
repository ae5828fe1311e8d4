import { FormGroup, InputGroup } from '@blueprintjs/core';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createNamedItem,
  editNamedItem,
  type NamedItem,
  type NameListKind,
} from '../../api/workforce/nameLists';
import { messages } from '../../domain/messages';
import { nameProblem } from '../../domain/nameRule';
import { isDirty } from '../forms/isDirty';
import { serverProblem } from '../forms/serverProblem';
import { WorkforceDialog } from '../forms/WorkforceDialog';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';

interface NameDialogProps {
  siteId: number;
  kind: NameListKind;
  /** The English label of spec §5 messages: "Worker role", "Subcontractor", "Crew". */
  label: string;
  /** i18n prefix of the screen's texts, e.g. "workforce.workerRoles". */
  texts: string;
  /** The item to edit; null creates one. */
  item: NamedItem | null;
  onClose(): void;
  onSaved(item: NamedItem): void;
}

/** Create or rename a worker role, subcontractor or crew. */
export function NameDialog({ siteId, kind, label, texts, item, onClose, onSaved }: NameDialogProps) {
  const { t } = useTranslation();
  const api = useApi();
  const id = useId();
  const initial = item?.name ?? '';
  const [name, setName] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  const mutation = useMutation({
    mutationFn: (value: string) =>
      item ? editNamedItem(api, siteId, kind, item.id, value) : createNamedItem(api, siteId, kind, value),
    onSuccess: (saved) => {
      void notify({
        message: item ? t('workforce.updated', { label: saved.name }) : messages.created(label),
        intent: 'success',
      });
      onSaved(saved);
    },
  });
  const problem = submitted ? nameProblem('Name', name) : null;
  const server = serverProblem(mutation.error, t('common.somethingWentWrong'));
  const error = problem ?? server.fields.name ?? null;

  return (
    <WorkforceDialog
      title={t(item ? `${texts}.edit` : `${texts}.new`)}
      dirty={isDirty(initial, name)}
      busy={mutation.isPending}
      error={server.general}
      submitText={item ? t('workforce.save') : t('common.create')}
      testId="name-form"
      onClose={onClose}
      onSubmit={() => {
        setSubmitted(true);
        if (nameProblem('Name', name)) return;
        mutation.mutate(name.trim());
      }}
    >
      <FormGroup
        label={t('workforce.name')}
        labelFor={`${id}-name`}
        intent={error ? 'danger' : 'none'}
        helperText={error}
      >
        <InputGroup
          id={`${id}-name`}
          name="name"
          autoFocus
          value={name}
          intent={error ? 'danger' : 'none'}
          data-testid="name-form-name"
          onValueChange={(value) => {
            setName(value);
            mutation.reset();
          }}
        />
      </FormGroup>
    </WorkforceDialog>
  );
}
