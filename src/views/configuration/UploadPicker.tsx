import { Button, Callout, FileInput, FormGroup, ProgressBar } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { formatCount } from '../../domain/numberFormat';
import { uploadFileMessage } from '../../domain/uploadFile';
import {
  type bulkUploadMachine,
  selectCanPick,
  selectCanUpload,
  selectError,
  selectFile,
  selectOutcome,
  selectProgress,
  selectTransferring,
  selectUploadState,
} from '../../machines/bulkUpload.machine';

interface UploadPickerProps {
  actor: ActorRefFrom<typeof bulkUploadMachine>;
  /** Whether a site is selected (uploads go to it). */
  hasSite: boolean;
  onChoose(file: File | null): void;
}

/** Passed to the file input itself (FileInput's own props go to its label). */
const TEST_ID: Record<string, string> = { 'data-testid': 'bulk-file' };

const CHECK_KEYS = {
  1: 'configuration.bulk.fileCheck.wrongType',
  2: 'configuration.bulk.fileCheck.tooLarge',
} as const;

/**
 * One .xlsx file, checked as soon as it is chosen, sent only when Upload is pressed (spec §2);
 * while it goes up a progress bar shows the share sent, then "Validating…" until the reply.
 */
export function UploadPicker({ actor, hasSite, onChoose }: UploadPickerProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const checkId = useId();
  const file = useSelector(actor, selectFile);
  const canPick = useSelector(actor, selectCanPick);
  const canUpload = useSelector(actor, selectCanUpload);
  const transferring = useSelector(actor, selectTransferring);
  const progress = useSelector(actor, selectProgress);
  const error = useSelector(actor, selectError);
  const outcome = useSelector(actor, selectOutcome);
  const state = useSelector(actor, selectUploadState);
  // A cleared choice empties the input, so the same file can be chosen again.
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (file === null && input.current) input.current.value = '';
  }, [file]);

  const checkMessage =
    file && file.check !== 0
      ? t(CHECK_KEYS[file.check], { defaultValue: uploadFileMessage(file.check) })
      : null;
  const percent = progress === null ? null : Math.round(progress * 100);

  return (
    <section className="sw-bulk-picker" aria-labelledby={`${inputId}-heading`}>
      <h2 className="bp6-heading sw-bulk-heading" id={`${inputId}-heading`}>
        {t('configuration.bulk.uploadHeading')}
      </h2>
      {outcome?.type === 'committed' && (
        <Callout intent="success" icon="tick-circle" data-testid="bulk-committed" role="status">
          {t('configuration.bulk.committed', {
            file: outcome.upload?.file_name ?? '',
            rows: formatCount(outcome.upload?.row_count ?? 0),
          })}
        </Callout>
      )}
      {outcome?.type === 'cancelled' && (
        <Callout intent="none" icon="disable" data-testid="bulk-cancelled" role="status">
          {t('configuration.bulk.cancelled', { file: outcome.upload?.file_name ?? '' })}
        </Callout>
      )}
      {error && state === 'picking' && (
        <Callout intent="danger" icon="error" data-testid="bulk-upload-error" role="alert">
          {error}
        </Callout>
      )}
      <div className="sw-bulk-picker-row">
        <FormGroup
          label={t('configuration.bulk.file')}
          labelFor={inputId}
          helperText={t('configuration.bulk.fileHint')}
          className="sw-bulk-file"
        >
          <FileInput
            fill
            disabled={!canPick || !hasSite}
            hasSelection={file !== null}
            text={file ? file.name : t('configuration.bulk.chooseFile')}
            buttonText={t('configuration.bulk.browse')}
            inputProps={{
              ...TEST_ID,
              ref: input,
              id: inputId,
              accept: '.xlsx',
              multiple: false,
              'aria-label': t('configuration.bulk.file'),
              'aria-invalid': checkMessage !== null,
              'aria-describedby': checkMessage ? checkId : undefined,
            }}
            onInputChange={(event) => onChoose(event.currentTarget.files?.[0] ?? null)}
          />
        </FormGroup>
        <Button
          intent="primary"
          icon="upload"
          text={t('configuration.bulk.upload')}
          disabled={!canUpload || !hasSite}
          onClick={() => actor.send({ type: 'upload.start', uploadId: crypto.randomUUID() })}
          data-testid="bulk-upload"
        />
      </div>
      {checkMessage && (
        <p
          className="sw-bulk-check bp6-intent-danger"
          id={checkId}
          role="alert"
          data-testid="bulk-file-check"
        >
          {checkMessage}
        </p>
      )}
      {transferring && (
        <div className="sw-bulk-progress" data-testid="bulk-progress">
          <ProgressBar
            intent="primary"
            value={percent === null ? undefined : percent / 100}
            aria-label={t('configuration.bulk.progress')}
          />
          <span role="status">
            {percent === null
              ? t('configuration.bulk.validating')
              : t('configuration.bulk.uploading', { percent: formatCount(percent) })}
          </span>
          <Button
            variant="outlined"
            icon="cross"
            text={t('configuration.bulk.cancelUpload')}
            onClick={() => actor.send({ type: 'upload.cancel' })}
            data-testid="bulk-cancel-upload"
          />
        </div>
      )}
    </section>
  );
}
