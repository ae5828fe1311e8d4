import { Alert } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

interface DiscardChangesAlertProps {
  isOpen: boolean;
  /** Leave the form: its changes are lost. */
  onProceed(): void;
  /** Back to the form as it was. */
  onStay(): void;
}

/**
 * Spec §8's question before a dirty form closes: "You are about to cancel all your updates. All
 * changes will be unsaved, proceed?" — the words of the workforce dialogs (workforce.confirmCancel),
 * for forms that are not one of those dialogs (the worker drawer).
 */
export function DiscardChangesAlert({ isOpen, onProceed, onStay }: DiscardChangesAlertProps) {
  const { t } = useTranslation();
  return (
    <Alert
      isOpen={isOpen}
      intent="warning"
      icon="warning-sign"
      confirmButtonText={t('workforce.confirmCancel.proceed')}
      cancelButtonText={t('workforce.confirmCancel.stay')}
      onConfirm={onProceed}
      onCancel={onStay}
      className="sw-discard-changes"
    >
      <p data-testid="discard-changes-text">{t('workforce.confirmCancel.text')}</p>
    </Alert>
  );
}
