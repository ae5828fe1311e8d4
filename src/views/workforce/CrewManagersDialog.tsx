import { Checkbox, FormGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type CrewWithManagers,
  setCrewManagers,
  useCrewManagerUsers,
} from '../../api/workforce/crewManagers';
import { isDirty } from '../forms/isDirty';
import { serverProblem } from '../forms/serverProblem';
import { WorkforceDialog } from '../forms/WorkforceDialog';
import { notify } from '../notify';
import { useApi } from '../session/SessionProvider';
import { toggleId } from '../shared/assignForm';

interface CrewManagersDialogProps {
  site: { id: number; client_id: number };
  crew: CrewWithManagers;
  onClose(): void;
  onSaved(crew: CrewWithManagers): void;
}

/** Admins name a crew's managers among the site's users with the crew-manager role. */
export function CrewManagersDialog({ site, crew, onClose, onSaved }: CrewManagersDialogProps) {
  const { t } = useTranslation();
  const api = useApi();
  const [initial] = useState(() => [...crew.manager_ids].sort((a, b) => a - b));
  const [picked, setPicked] = useState(initial);
  const users = useCrewManagerUsers(api, site.id);
  const mutation = useMutation({
    mutationFn: (userIds: number[]) => setCrewManagers(api, site.id, crew.id, userIds),
    onSuccess: ({ crew: saved, message }) => {
      void notify({ message, intent: 'success' });
      onSaved(saved);
    },
  });
  const server = serverProblem(mutation.error, t('common.somethingWentWrong'));
  const sorted = [...picked].sort((a, b) => a - b);

  let body = null;
  if (users.isPending) body = <Spinner size={20} />;
  else if (users.isError) body = <NonIdealState icon="error" description={users.error.message} />;
  else if (users.data.length === 0)
    body = <NonIdealState icon="person" description={t('workforce.managers.noneAvailable')} />;
  else
    body = (
      <FormGroup label={t('workforce.managers.pick')}>
        <div className="sw-assign-managers" data-testid="managers-options">
          {users.data.map((user) => (
            <Checkbox
              key={user.id}
              checked={picked.includes(user.id)}
              onChange={() => {
                setPicked((ids) => toggleId(ids, user.id));
                mutation.reset();
              }}
              data-testid={`managers-option-${user.id}`}
            >
              <span>{user.name}</span> <span className="bp6-text-muted">{user.email}</span>
            </Checkbox>
          ))}
        </div>
      </FormGroup>
    );

  return (
    <WorkforceDialog
      title={t('workforce.managers.title', { name: crew.name })}
      dirty={isDirty(initial, sorted)}
      busy={mutation.isPending}
      error={server.general ?? (Object.values(server.fields).join(' ') || null)}
      submitText={t('workforce.save')}
      testId="managers-form"
      onClose={onClose}
      onSubmit={() => mutation.mutate(sorted)}
    >
      {body}
    </WorkforceDialog>
  );
}
