import { Button, Callout, NonIdealState, Spinner, Switch } from '@blueprintjs/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { DRAFT_ROWS_PER_PAGE } from '../../api/bulkUploads';
import { bulkKind } from '../../domain/bulkKinds';
import type { UploadDraft } from '../../domain/schemas/bulk';
import {
  type bulkUploadMachine,
  selectBusy,
  selectCanCancelDraft,
  selectCanCommit,
  selectConfirmingCancel,
  selectDraft,
  selectError,
  selectUploadState,
} from '../../machines/bulkUpload.machine';
import { ConfirmAlert } from '../shared/ConfirmAlert';
import { Pager } from '../shared/Pager';
import { formatUploadInstant, pageCount, uploadCounts } from './bulkUploadText';
import { DraftRowsTable } from './DraftRowsTable';

interface DraftReviewProps {
  actor: ActorRefFrom<typeof bulkUploadMachine>;
  rows: UseQueryResult<UploadDraft>;
  page: number;
  onPage(page: number): void;
  errorsOnly: boolean;
  onErrorsOnly(value: boolean): void;
  timeZone: string;
}

/** The draft's review: its summary, its rows (all, or those with errors), Commit and Cancel draft. */
export function DraftReview({
  actor,
  rows,
  page,
  onPage,
  errorsOnly,
  onErrorsOnly,
  timeZone,
}: DraftReviewProps) {
  const { t } = useTranslation();
  const upload = useSelector(actor, selectDraft);
  const state = useSelector(actor, selectUploadState);
  const error = useSelector(actor, selectError);
  const busy = useSelector(actor, selectBusy);
  const canCommit = useSelector(actor, selectCanCommit);
  const canCancel = useSelector(actor, selectCanCancelDraft);
  const confirming = useSelector(actor, selectConfirmingCancel);
  if (!upload) return null;

  const definition = bulkKind(upload.kind);
  const counts = uploadCounts(upload);
  const total = errorsOnly ? upload.error_row_count : upload.row_count;
  const pages = pageCount(total, DRAFT_ROWS_PER_PAGE);
  const pageRows = rows.data?.rows ?? [];

  return (
    <section className="sw-bulk-review" aria-labelledby="bulk-review-heading" data-testid="bulk-review">
      <h2 className="bp6-heading sw-bulk-heading" id="bulk-review-heading">
        {t('configuration.bulk.review.title', { file: upload.file_name })}
      </h2>
      <p className="sw-bulk-summary" data-testid="bulk-summary">
        {t('configuration.bulk.review.summary', counts)}
      </p>
      {upload.same_file_as !== null && (
        <Callout intent="warning" icon="duplicate" data-testid="bulk-same-file">
          {t('configuration.bulk.review.sameFile', {
            date: upload.same_file_uploaded_at
              ? formatUploadInstant(upload.same_file_uploaded_at, timeZone)
              : '-',
          })}
        </Callout>
      )}
      {error && (
        <Callout intent="danger" icon="error" role="alert" data-testid="bulk-review-error">
          {error}
        </Callout>
      )}
      <p className="sw-bulk-hint">
        {upload.error_row_count > 0
          ? t('configuration.bulk.review.hasErrors')
          : t('configuration.bulk.review.noErrors')}
      </p>
      <div className="sw-bulk-toolbar">
        <Switch
          checked={errorsOnly}
          disabled={upload.error_row_count === 0 && !errorsOnly}
          label={t('configuration.bulk.review.onlyErrors')}
          onChange={(event) => onErrorsOnly(event.currentTarget.checked)}
          data-testid="bulk-errors-only"
        />
        <Pager page={page} pages={pages} onPage={onPage} testId="bulk-review-pager" />
      </div>
      {rows.isPending ? (
        <Spinner aria-label={t('common.loading')} />
      ) : rows.isError && !rows.data ? (
        <NonIdealState
          icon="error"
          description={t('common.somethingWentWrong')}
          action={<Button text={t('common.retry')} onClick={() => void rows.refetch()} />}
        />
      ) : pageRows.length === 0 ? (
        <NonIdealState icon="tick" description={t('configuration.bulk.review.noRows')} />
      ) : (
        <DraftRowsTable definition={definition} rows={pageRows} />
      )}
      <div className="sw-bulk-actions">
        <Button
          intent="primary"
          icon="tick"
          text={t('configuration.bulk.review.commit')}
          disabled={!canCommit}
          loading={state === 'committing'}
          onClick={() => actor.send({ type: 'commit' })}
          data-testid="bulk-commit"
        />
        <Button
          variant="outlined"
          intent="danger"
          icon="trash"
          text={t('configuration.bulk.review.cancelDraft')}
          disabled={!canCancel || busy}
          loading={state === 'cancelling'}
          onClick={() => actor.send({ type: 'draft.cancel' })}
          data-testid="bulk-cancel-draft"
        />
      </div>
      <ConfirmAlert
        isOpen={confirming}
        intent="danger"
        icon="warning-sign"
        confirmText={t('configuration.bulk.review.confirmCancel')}
        cancelText={t('configuration.bulk.review.keepDraft')}
        escapeCancels
        onConfirm={() => actor.send({ type: 'cancel.confirm' })}
        onCancel={() => actor.send({ type: 'cancel.back' })}
      >
        <p data-testid="bulk-confirm-cancel">{t('configuration.bulk.review.confirmCancelText')}</p>
      </ConfirmAlert>
    </section>
  );
}
