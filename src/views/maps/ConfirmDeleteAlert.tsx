import { useTranslation } from 'react-i18next';
import { ConfirmAlert } from '../shared/ConfirmAlert';

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
    <ConfirmAlert
      isOpen={label !== null}
      className="sw-confirm-delete"
      intent="danger"
      icon="trash"
      busy={busy}
      escapeCancels
      confirmText={t('maps.delete')}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p data-testid="confirm-delete-text">{t('maps.confirmDelete', { label: label ?? '' })}</p>
    </ConfirmAlert>
  );
}
