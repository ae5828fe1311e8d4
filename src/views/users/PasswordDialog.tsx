import { Callout, FormGroup, InputGroup } from '@blueprintjs/core';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setUserPassword } from '../../api/users';
import type { ManagedUser } from '../../domain/user';
import { isDirty } from '../forms/isDirty';
import { serverProblem } from '../forms/serverProblem';
import { WorkforceDialog } from '../forms/WorkforceDialog';
import { useApi } from '../session/SessionProvider';
import { ConfirmAlert } from '../shared/ConfirmAlert';
import { serverText } from '../shared/serverMessage';
import { passwordProblems } from './userForm';

interface PasswordDialogProps {
  user: ManagedUser;
  onClose(): void;
  /** The server's success message. */
  onSaved(message: string): void;
}

/**
 * An administrator sets a user's password (POST /users/{id}/reset-password). It signs the user
 * out everywhere, so the new password is asked for twice and confirmed before it is sent.
 */
export function PasswordDialog({ user, onClose, onSaved }: PasswordDialogProps) {
  const { t } = useTranslation();
  const api = useApi();
  const id = useId();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const mutation = useMutation({
    mutationFn: () => setUserPassword(api, user.id, password),
    onSuccess: ({ message }) => onSaved(message),
    onSettled: () => setConfirming(false),
  });
  const problems = submitted ? passwordProblems(password, confirmation) : {};
  const server = serverProblem(mutation.error, t('common.somethingWentWrong'));
  const passwordError =
    (problems.password ? serverText(problems.password, t) : null) ?? server.fields.password ?? null;
  const confirmationError =
    problems.confirmation === 'required'
      ? t('server.field.required', { label: t('users.form.confirmPassword') })
      : problems.confirmation === 'differs'
        ? t('users.form.passwordsDiffer')
        : null;

  return (
    <WorkforceDialog
      title={t('users.form.passwordTitle', { name: user.name })}
      dirty={isDirty({ password: '', confirmation: '' }, { password, confirmation })}
      busy={mutation.isPending}
      error={server.general}
      submitText={t('users.form.passwordSubmit')}
      testId="password-form"
      onClose={onClose}
      onSubmit={() => {
        setSubmitted(true);
        if (Object.keys(passwordProblems(password, confirmation)).length > 0) return;
        setConfirming(true);
      }}
    >
      <Callout compact intent="warning" icon="log-out">
        {t('users.form.signsOut', { name: user.name })}
      </Callout>
      <FormGroup
        label={t('users.form.password')}
        labelFor={`${id}-password`}
        intent={passwordError ? 'danger' : 'none'}
        helperText={
          passwordError ? <span data-testid="password-form-password-error">{passwordError}</span> : null
        }
      >
        <InputGroup
          id={`${id}-password`}
          name="password"
          type="password"
          autoComplete="new-password"
          autoFocus
          value={password}
          intent={passwordError ? 'danger' : 'none'}
          data-testid="password-form-password"
          onValueChange={(value) => {
            setPassword(value);
            mutation.reset();
          }}
        />
      </FormGroup>
      <FormGroup
        label={t('users.form.confirmPassword')}
        labelFor={`${id}-confirmation`}
        intent={confirmationError ? 'danger' : 'none'}
        helperText={
          confirmationError ? (
            <span data-testid="password-form-confirmation-error">{confirmationError}</span>
          ) : null
        }
      >
        <InputGroup
          id={`${id}-confirmation`}
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          value={confirmation}
          intent={confirmationError ? 'danger' : 'none'}
          data-testid="password-form-confirmation"
          onValueChange={setConfirmation}
        />
      </FormGroup>
      <ConfirmAlert
        isOpen={confirming}
        intent="danger"
        icon="key"
        confirmText={t('users.confirm.setPasswordButton')}
        busy={mutation.isPending}
        escapeCancels
        className="sw-users-confirm-password"
        onConfirm={() => mutation.mutate()}
        onCancel={() => setConfirming(false)}
      >
        <p data-testid="users-confirm-password">{t('users.confirm.setPassword', { name: user.name })}</p>
      </ConfirmAlert>
    </WorkforceDialog>
  );
}
