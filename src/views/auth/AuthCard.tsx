import { Button, Callout, Card, FormGroup, H1, InputGroup } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import './auth.css';

/** The frame of every public page: the product name, a title, and the form. */
export function AuthCard({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="sw-auth">
      <Card className="sw-auth-card" elevation={2}>
        <p className="sw-auth-brand">{t('auth.appName')}</p>
        <H1 className="sw-auth-title" data-testid="auth-title">
          {title}
        </H1>
        {intro && <p className="sw-auth-intro">{intro}</p>}
        {children}
      </Card>
    </div>
  );
}

export interface AuthFieldProps {
  /** Also the input's name: `email`, `password`, `confirmPassword`, `name`. */
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** Shown under the field, in red, when present. */
  error?: string | null;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  autoFocus?: boolean;
  disabled?: boolean;
}

/** A labelled input with its error next to it; Enter submits the surrounding form. */
export function AuthField({
  id,
  label,
  value,
  onChange,
  onBlur,
  error,
  type = 'text',
  autoComplete,
  autoFocus,
  disabled,
}: AuthFieldProps) {
  const errorId = `${id}-error`;
  return (
    <FormGroup
      label={label}
      labelFor={id}
      intent={error ? 'danger' : 'none'}
      helperText={
        error ? (
          <span id={errorId} data-testid={errorId}>
            {error}
          </span>
        ) : undefined
      }
    >
      <InputGroup
        id={id}
        name={id}
        type={type}
        value={value}
        onValueChange={(next) => onChange(next)}
        onBlur={onBlur}
        intent={error ? 'danger' : 'none'}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        disabled={disabled}
        size="large"
        dir={type === 'email' || type === 'password' ? 'ltr' : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
    </FormGroup>
  );
}

/** A refused request, above the form. */
export function FormFailure({ message, testId }: { message: string | null; testId: string }) {
  if (!message) return null;
  return (
    <Callout intent="danger" className="sw-auth-callout" data-testid={testId} role="alert">
      {message}
    </Callout>
  );
}

export function SubmitButton({ text, pending }: { text: string; pending: boolean }) {
  return (
    <div className="sw-auth-actions">
      <Button type="submit" intent="primary" size="large" fill loading={pending}>
        {text}
      </Button>
    </div>
  );
}

export function BackToLogin() {
  const { t } = useTranslation();
  return (
    <div className="sw-auth-links">
      <Link href="/login">{t('auth.backToLogin')}</Link>
    </div>
  );
}
