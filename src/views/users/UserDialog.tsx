import { Callout, Checkbox, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError, isCancelled } from '../../api/apiError';
import { editUser, inviteUser } from '../../api/users';
import { ROLE_LABELS, type Role } from '../../domain/roles';
import type { Client, ManagedUser } from '../../domain/user';
import { managedRoles, roleChoices } from '../../domain/userManagement';
import { isDirty } from '../forms/isDirty';
import { WorkforceDialog } from '../forms/WorkforceDialog';
import { useApi, useSession } from '../session/SessionProvider';
import { serverFieldErrorsOf, serverMessageOf, serverText } from '../shared/serverMessage';
import { useSelection } from '../shell/selection';
import {
  editBody,
  inviteBody,
  takesSites,
  type UserForm,
  type UserFormField,
  userForm,
  userFormProblems,
} from './userForm';

interface UserDialogProps {
  client: Client;
  /** The user to edit; null invites one. */
  user: ManagedUser | null;
  onClose(): void;
  /** The server's success message. */
  onSaved(message: string): void;
}

/** Invite a user (name, e-mail, role, sites) into the selected client, or edit one. */
export function UserDialog({ client, user, onClose, onSaved }: UserDialogProps) {
  const { t } = useTranslation();
  const api = useApi();
  const id = useId();
  const { user: me } = useSession();
  const { sites } = useSelection();
  const inviting = user === null;
  const [initial] = useState(() => userForm(user));
  const [form, setForm] = useState<UserForm>(initial);
  const [submitted, setSubmitted] = useState(false);
  const caller = me ? { id: me.id, role: me.user_role } : null;
  const roles: readonly Role[] = !caller ? [] : user ? roleChoices(caller, user) : managedRoles(caller.role);

  const mutation = useMutation({
    mutationFn: async (value: UserForm) =>
      user
        ? (await editUser(api, user.id, editBody(value, user))).message
        : (await inviteUser(api, inviteBody(value, client.id))).message,
    onSuccess: (message) => onSaved(message),
  });

  const problems = submitted ? userFormProblems(form, inviting) : {};
  const failure = mutation.error && !isCancelled(mutation.error) ? mutation.error : null;
  const serverFields: Record<string, string> =
    failure && isApiError(failure) ? serverFieldErrorsOf(failure, t) : {};
  const taken =
    failure && isApiError(failure) && failure.status === 409 ? serverMessageOf(failure, '', t) : null;
  const errorOf = (field: UserFormField): string | null => {
    const own = problems[field];
    if (own) return serverText(own, t);
    if (field === 'email' && taken) return taken;
    return serverFields[field] ?? null;
  };
  const general =
    failure && Object.keys(serverFields).length === 0 && !taken
      ? isApiError(failure)
        ? serverMessageOf(failure, t('common.somethingWentWrong'), t)
        : t('common.somethingWentWrong')
      : null;

  const change = (patch: Partial<UserForm>) => {
    setForm((current) => ({ ...current, ...patch }));
    mutation.reset();
  };
  const roleLabel = (role: Role) => t(`shell.role.${role}`, { defaultValue: ROLE_LABELS[role] });
  const ownRoleFixed = user !== null && user.id === caller?.id;

  return (
    <WorkforceDialog
      title={inviting ? t('users.form.inviteTitle') : t('users.form.editTitle', { name: user.name })}
      dirty={isDirty(initial, form)}
      busy={mutation.isPending}
      error={general}
      submitText={inviting ? t('users.form.inviteSubmit') : t('users.form.save')}
      testId="user-form"
      onClose={onClose}
      onSubmit={() => {
        setSubmitted(true);
        if (Object.keys(userFormProblems(form, inviting)).length > 0) return;
        mutation.mutate(form);
      }}
    >
      <Field id={`${id}-name`} field="name" label={t('users.form.name')} error={errorOf('name')}>
        <InputGroup
          id={`${id}-name`}
          name="name"
          autoFocus
          value={form.name}
          intent={errorOf('name') ? 'danger' : 'none'}
          data-testid="user-form-name"
          onValueChange={(name) => change({ name })}
        />
      </Field>
      {inviting && (
        <Field id={`${id}-email`} field="email" label={t('users.form.email')} error={errorOf('email')}>
          <InputGroup
            id={`${id}-email`}
            name="email"
            type="email"
            dir="ltr"
            value={form.email}
            intent={errorOf('email') ? 'danger' : 'none'}
            data-testid="user-form-email"
            onValueChange={(email) => change({ email })}
          />
        </Field>
      )}
      <Field
        id={`${id}-role`}
        field="role"
        label={t('users.form.role')}
        error={errorOf('user_role')}
        helper={ownRoleFixed ? t('users.form.roleFixed') : null}
      >
        <HTMLSelect
          id={`${id}-role`}
          name="user_role"
          fill
          value={form.role}
          disabled={roles.length <= 1 && !inviting}
          data-testid="user-form-role"
          onChange={(event) => change({ role: event.currentTarget.value as Role })}
          options={[
            ...(form.role === '' ? [{ value: '', label: t('users.form.pickRole') }] : []),
            ...roles.map((role) => ({ value: role, label: roleLabel(role) })),
          ]}
        />
      </Field>
      {form.role !== '' && !takesSites(form.role) ? (
        <Callout compact icon="info-sign" data-testid="user-form-whole-client">
          {t('users.form.wholeClient', { role: roleLabel(form.role) })}
        </Callout>
      ) : form.role !== '' ? (
        <FormGroup
          label={t('users.form.sites')}
          helperText={errorOf('site_ids') ?? t('users.form.sitesHint', { client: client.name })}
          intent={errorOf('site_ids') ? 'danger' : 'none'}
        >
          <div className="sw-users-sites" data-testid="user-form-sites">
            {sites.length === 0
              ? t('users.form.noClientSites')
              : sites.map((site) => (
                  <Checkbox
                    key={site.id}
                    label={site.name}
                    checked={form.siteIds.includes(site.id)}
                    data-testid="user-form-site"
                    onChange={(event) => {
                      const checked = event.currentTarget.checked;
                      change({
                        siteIds: checked
                          ? [...form.siteIds, site.id].sort((a, b) => a - b)
                          : form.siteIds.filter((siteId) => siteId !== site.id),
                      });
                    }}
                  />
                ))}
          </div>
        </FormGroup>
      ) : null}
    </WorkforceDialog>
  );
}

function Field({
  id,
  field,
  label,
  error,
  helper = null,
  children,
}: {
  id: string;
  /** Names the error's test id: `user-form-<field>-error`. */
  field: string;
  label: string;
  error: string | null;
  helper?: string | null;
  children: ReactNode;
}) {
  return (
    <FormGroup
      label={label}
      labelFor={id}
      intent={error ? 'danger' : 'none'}
      helperText={error ? <span data-testid={`user-form-${field}-error`}>{error}</span> : helper}
    >
      {children}
    </FormGroup>
  );
}
