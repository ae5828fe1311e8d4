import { Alert } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

interface ConfirmDeleteAlertProps {
  /** What is deleted, as the confirmation names it; null keeps the alert closed. */
  label: string | null;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** Spec §8: "Are you sure to delete <label> information, this action can't be undone?" */
export function ConfirmDeleteAlert({ label, busy = false, onConfirm, onCancel }: ConfirmDeleteAlertProps) {
  const { t } = useTranslation();
  return (
    <Alert
      isOpen={label !== null}
      className="sw-confirm-delete"
      intent="danger"
      icon="trash"
      loading={busy}
      canEscapeKeyCancel={!busy}
      confirmButtonText={t('maps.delete')}
      cancelButtonText={t('common.cancel')}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p data-testid="confirm-delete-text">{t('maps.confirmDelete', { label: label ?? '' })}</p>
    </Alert>
  );
}
