import { Button, Callout, Dialog, DialogBody, DialogFooter, ProgressBar } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../domain/numberFormat';
import {
  type ActivityApprovalSnapshot,
  activityApprovalStateOf,
  selectCanCancel,
  selectCanConfirm,
  selectCanDismiss,
  selectCanOpen,
  selectCanRetry,
} from '../../machines/activityApproval.machine';
import { serverText } from '../shared/serverMessage';

interface ApprovalPanelProps {
  snapshot: ActivityApprovalSnapshot;
  send(event: { type: 'approve.open' | 'approve.confirm' | 'approve.cancel' | 'retry' | 'dismiss' }): void;
}

/** "Approve selected", its confirmation, the progress and the outcome; every button enabled by the machine. */
export function ApprovalPanel({ snapshot, send }: ApprovalPanelProps) {
  const { t } = useTranslation();
  const state = activityApprovalStateOf(snapshot);
  const { selection, sent, outcome, error } = snapshot.context;
  const dismiss = (
    <Button
      small
      text={t('productivity.approval.dismiss')}
      disabled={!selectCanDismiss(snapshot)}
      onClick={() => send({ type: 'dismiss' })}
    />
  );
  return (
    <div className="sw-productivity-approval" data-testid="approval-panel" data-state={state}>
      <div className="sw-productivity-approval-bar">
        <Button
          intent="success"
          icon="tick-circle"
          text={t('productivity.approval.approveSelected')}
          disabled={!selectCanOpen(snapshot)}
          data-testid="approve-selected"
          onClick={() => send({ type: 'approve.open' })}
        />
        <span data-testid="approval-count">
          {t('productivity.approval.selected', { number: formatCount(selection.length) })}
        </span>
      </div>
      {state === 'approving' ? (
        <div data-testid="approval-progress" role="status">
          <p>{t('productivity.approval.approving', { number: formatCount(sent.length) })}</p>
          <ProgressBar intent="primary" />
        </div>
      ) : null}
      {state === 'done' && outcome ? (
        <Callout intent="success" data-testid="approval-done" role="status">
          <p>{outcome.message ? serverText(outcome.message, t) : t('productivity.approval.done')}</p>
          {dismiss}
        </Callout>
      ) : null}
      {state === 'partialFailure' && outcome ? (
        <Callout
          intent="warning"
          title={t('productivity.approval.partial')}
          data-testid="approval-partial"
          role="alert"
        >
          {outcome.message ? <p data-testid="approval-message">{serverText(outcome.message, t)}</p> : null}
          <ul>
            {outcome.refused.map((row) => (
              <li key={row.id} data-testid="approval-refused" data-activity-id={row.id}>
                {t('productivity.approval.refusedRow', {
                  label: row.label,
                  message: serverText(row.message, t),
                  interpolation: { escapeValue: false },
                })}
              </li>
            ))}
          </ul>
          {dismiss}
        </Callout>
      ) : null}
      {state === 'failure' ? (
        <Callout intent="danger" data-testid="approval-failed" role="alert">
          <p>{t('productivity.approval.failed', { message: serverText(error ?? '', t) })}</p>
          <Button
            small
            intent="primary"
            text={t('productivity.approval.retry')}
            disabled={!selectCanRetry(snapshot)}
            onClick={() => send({ type: 'retry' })}
          />{' '}
          <Button
            small
            text={t('productivity.approval.no')}
            disabled={!selectCanCancel(snapshot)}
            onClick={() => send({ type: 'approve.cancel' })}
          />
        </Callout>
      ) : null}
      <Dialog
        isOpen={state === 'confirming'}
        title={t('productivity.approval.confirmTitle')}
        onClose={() => send({ type: 'approve.cancel' })}
      >
        <DialogBody>
          <p data-testid="approval-confirm-text">{t('productivity.approval.confirm')}</p>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button
                text={t('productivity.approval.no')}
                disabled={!selectCanCancel(snapshot)}
                data-testid="approval-cancel"
                onClick={() => send({ type: 'approve.cancel' })}
              />
              <Button
                intent="success"
                text={t('productivity.approval.yes')}
                disabled={!selectCanConfirm(snapshot)}
                data-testid="approval-confirm"
                onClick={() => send({ type: 'approve.confirm' })}
              />
            </>
          }
        />
      </Dialog>
    </div>
  );
}
