import { Alert, type IconName, type Intent } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface ConfirmAlertProps {
  isOpen: boolean;
  intent: Intent;
  icon: IconName;
  confirmText: string;
  /** "Cancel" unless told. */
  cancelText?: string;
  /** The confirmed action is under way: the confirm button spins and Escape no longer cancels. */
  busy?: boolean;
  /** Whether Escape cancels (Blueprint's Alert: it does not unless told). */
  escapeCancels?: boolean;
  className?: string;
  /** Where the alert is drawn: inside a full-screen element, so that it shows over it. */
  portalContainer?: HTMLElement;
  onConfirm(): void;
  onCancel(): void;
  /** The question (and a heading, where there is one). */
  children: ReactNode;
}

/**
 * The console's one confirmation: a question with a confirm and a cancel button, asked before a
 * delete, a revoke, a discarded form, an escalation, a drill or the end of an evacuation.
 */
export function ConfirmAlert({
  isOpen,
  intent,
  icon,
  confirmText,
  cancelText,
  busy = false,
  escapeCancels = false,
  className,
  portalContainer,
  onConfirm,
  onCancel,
  children,
}: ConfirmAlertProps) {
  const { t } = useTranslation();
  return (
    <Alert
      isOpen={isOpen}
      className={className}
      intent={intent}
      icon={icon}
      loading={busy}
      canEscapeKeyCancel={escapeCancels && !busy}
      confirmButtonText={confirmText}
      cancelButtonText={cancelText ?? t('common.cancel')}
      onConfirm={onConfirm}
      onCancel={onCancel}
      portalContainer={portalContainer}
    >
      {children}
    </Alert>
  );
}
