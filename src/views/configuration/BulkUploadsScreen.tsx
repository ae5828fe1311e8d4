import './configuration.css';
import { Button, FormGroup, HTMLSelect, NonIdealState, Spinner } from '@blueprintjs/core';
import { useMutation } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { isSilent } from '../../api/client';
import { BULK_KIND_DEFINITIONS, bulkKind, isBulkKind } from '../../domain/bulkKinds';
import { selectCanPick } from '../../machines/bulkUpload.machine';
import { notify } from '../notify';
import { ScreenTitle } from '../screens/ScreenTitle';
import { saveFile } from '../shared/saveFile';
import { failureText } from '../shared/serverMessage';
import { useSelection } from '../shell/selection';
import { DraftReview } from './DraftReview';
import { UploadHistory } from './UploadHistory';
import { UploadPicker } from './UploadPicker';
import { useBulkApi } from './useBulkApi';
import { useBulkUpload } from './useBulkUpload';

/**
 * Bulk uploads (/configuration/bulkUploads): pick a kind, download its template, upload one
 * .xlsx as a draft, review its rows and commit or cancel it; the kind's past uploads below.
 */
export function BulkUploadsScreen() {
  const { t } = useTranslation();
  const api = useBulkApi();
  const { site, loading } = useSelection();
  const siteId = site?.id ?? null;
  const upload = useBulkUpload(api, siteId);
  const { actor, kind, state } = upload;
  const canPick = useSelector(actor, selectCanPick);
  const definition = bulkKind(kind);
  const selectId = useId();
  const template = useMutation({
    mutationFn: () => {
      if (siteId === null) throw new Error(t('configuration.bulk.noSite'));
      return api.template(siteId, definition);
    },
    onSuccess: ({ blob, fileName }) => saveFile(blob, fileName),
    onError: (error) => {
      if (!isSilent(error))
        void notify({ message: failureText(error, t('common.somethingWentWrong')), intent: 'danger' });
    },
  });

  const body = () => {
    if (!site) {
      return loading.clients || loading.sites ? (
        <Spinner aria-label={t('common.loading')} />
      ) : (
        <NonIdealState icon="office" description={t('configuration.bulk.noSite')} />
      );
    }
    return (
      <>
        {state === 'resuming' ? (
          <Spinner aria-label={t('common.loading')} />
        ) : upload.rows &&
          (state === 'draft' ||
            state === 'confirmingCancel' ||
            state === 'committing' ||
            state === 'cancelling') ? (
          <DraftReview
            actor={actor}
            rows={upload.rows}
            page={upload.page}
            onPage={upload.setPage}
            errorsOnly={upload.errorsOnly}
            onErrorsOnly={upload.setErrorsOnly}
            timeZone={site.timezone}
          />
        ) : (
          <UploadPicker actor={actor} hasSite onChoose={(file) => void upload.chooseFile(file)} />
        )}
        <UploadHistory api={api} siteId={site.id} timeZone={site.timezone} definition={definition} />
      </>
    );
  };

  return (
    <section className="sw-bulk" data-testid="bulk-uploads">
      <ScreenTitle>{t('screen.bulkUploads')}</ScreenTitle>
      <div className="sw-bulk-toolbar">
        <FormGroup label={t('configuration.bulk.kind')} labelFor={selectId} inline className="sw-bulk-kind">
          <HTMLSelect
            id={selectId}
            value={kind}
            disabled={!canPick}
            aria-label={t('configuration.bulk.kind')}
            onChange={(event) => {
              const next = event.currentTarget.value;
              if (isBulkKind(next)) actor.send({ type: 'kind.select', kind: next });
            }}
            data-testid="bulk-kind"
          >
            {BULK_KIND_DEFINITIONS.map((option) => (
              <option key={option.kind} value={option.kind}>
                {t(`configuration.bulk.kinds.${option.kind}`, { defaultValue: option.label })}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <Button
          icon="download"
          text={t('configuration.bulk.downloadTemplate')}
          disabled={!site}
          loading={template.isPending}
          onClick={() => template.mutate()}
          data-testid="bulk-template"
        />
      </div>
      {body()}
    </section>
  );
}
