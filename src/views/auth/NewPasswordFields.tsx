import { useTranslation } from 'react-i18next';
import { AuthField } from './AuthCard';
import type { FieldBinding } from './authForm';

type PasswordField = 'password' | 'confirmPassword';

interface NewPasswordFieldsProps {
  errors: { bind(field: PasswordField, value: string, set: (value: string) => void): FieldBinding };
  password: string;
  confirmation: string;
  setPassword(value: string): void;
  setConfirmation(value: string): void;
  autoFocus?: boolean;
}

/** A new password and its confirmation (reset and registration). */
export function NewPasswordFields({
  errors,
  password,
  confirmation,
  setPassword,
  setConfirmation,
  autoFocus,
}: NewPasswordFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <AuthField
        {...errors.bind('password', password, setPassword)}
        type="password"
        label={t('auth.field.password')}
        autoComplete="new-password"
        autoFocus={autoFocus}
      />
      <AuthField
        {...errors.bind('confirmPassword', confirmation, setConfirmation)}
        type="password"
        label={t('auth.field.confirmPassword')}
        autoComplete="new-password"
      />
    </>
  );
}
