import { useTranslation } from 'react-i18next';
import { ConfirmAlert } from '../shared/ConfirmAlert';

interface DiscardChangesAlertProps {
  isOpen: boolean;
  /** Leave the form: its changes are lost. */
  onProceed(): void;
  /** Back to the form as it was. */
  onStay(): void;
  /** The question's test id (the workforce dialogs keep their own). */
  textTestId?: string;
  className?: string;
}

/**
 * Spec §8's question before a dirty form closes: "You are about to cancel all your updates. All
 * changes will be unsaved, proceed?" (workforce.confirmCancel), for every form that may close dirty.
 */
export function DiscardChangesAlert({
  isOpen,
  onProceed,
  onStay,
  textTestId = 'discard-changes-text',
  className = 'sw-discard-changes',
}: DiscardChangesAlertProps) {
  const { t } = useTranslation();
  return (
    <ConfirmAlert
      isOpen={isOpen}
      intent="warning"
      icon="warning-sign"
      confirmText={t('workforce.confirmCancel.proceed')}
      cancelText={t('workforce.confirmCancel.stay')}
      onConfirm={onProceed}
      onCancel={onStay}
      className={className}
    >
      <p data-testid={textTestId}>{t('workforce.confirmCancel.text')}</p>
    </ConfirmAlert>
  );
}
