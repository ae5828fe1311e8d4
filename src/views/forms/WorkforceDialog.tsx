import { Button, Callout, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DiscardChangesAlert } from './DiscardChangesAlert';
import './workforceDialog.css';

interface WorkforceDialogProps {
  title: string;
  /** True when the form differs from what it opened with: closing then asks first. */
  dirty: boolean;
  busy: boolean;
  /** A failure that belongs to no field (shown above the form). */
  error: string | null;
  submitText: string;
  testId: string;
  onSubmit(): void;
  onClose(): void;
  children: ReactNode;
}

/**
 * The create/edit dialog of the workforce screens. Closing a dirty form (Cancel, Escape, the
 * close button, a click outside) asks "You are about to cancel all your updates…" first.
 */
export function WorkforceDialog({
  title,
  dirty,
  busy,
  error,
  submitText,
  testId,
  onSubmit,
  onClose,
  children,
}: WorkforceDialogProps) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const close = () => {
    if (busy) return;
    if (dirty) setConfirming(true);
    else onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onSubmit();
  };
  return (
    <Dialog isOpen onClose={close} title={title} className="sw-workforce-dialog">
      <form onSubmit={submit} noValidate data-testid={testId}>
        <DialogBody>
          {error && (
            <Callout intent="danger" compact data-testid={`${testId}-error`}>
              {error}
            </Callout>
          )}
          {children}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button
                text={t('common.cancel')}
                onClick={close}
                disabled={busy}
                data-testid={`${testId}-cancel`}
              />
              <Button
                type="submit"
                intent="primary"
                text={submitText}
                loading={busy}
                data-testid={`${testId}-submit`}
              />
            </>
          }
        />
      </form>
      <DiscardChangesAlert
        isOpen={confirming}
        onProceed={() => {
          setConfirming(false);
          onClose();
        }}
        onStay={() => setConfirming(false)}
        textTestId="workforce-confirm-cancel"
      />
    </Dialog>
  );
}
