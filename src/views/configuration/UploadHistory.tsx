import { Button, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type BulkApi, HISTORY_PER_PAGE, uploadHistoryQuery } from '../../api/bulkUploads';
import { isSilent } from '../../api/client';
import type { BulkKindDefinition } from '../../domain/bulkKinds';
import { formatCount } from '../../domain/numberFormat';
import type { UploadSummary } from '../../domain/schemas/bulk';
import { notify } from '../notify';
import { Pager } from '../shared/Pager';
import { saveFile } from '../shared/saveFile';
import { failureText } from '../shared/serverMessage';
import { formatUploadInstant, pageCount } from './bulkUploadText';

interface UploadHistoryProps {
  api: BulkApi;
  siteId: number;
  timeZone: string;
  definition: BulkKindDefinition;
}

const STATUS_INTENT = {
  validating: 'warning',
  draft: 'primary',
  committed: 'success',
  cancelled: 'none',
  failed: 'danger',
} as const;

/** The kind's past uploads on the site, newest first: who, when, which file, how it ended, its rejected rows. */
export function UploadHistory({ api, siteId, timeZone, definition }: UploadHistoryProps) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [shownKind, setShownKind] = useState(definition.kind);
  if (shownKind !== definition.kind) {
    // Another kind's history opens at its first page.
    setShownKind(definition.kind);
    setPage(1);
  }
  const history = useQuery(uploadHistoryQuery(api, siteId, definition, page));
  const rejected = useMutation({
    mutationFn: (upload: UploadSummary) => api.rejectedRows(siteId, upload),
    onSuccess: ({ blob, fileName }) => saveFile(blob, fileName),
    onError: (error) => {
      if (!isSilent(error))
        void notify({ message: failureText(error, t('common.somethingWentWrong')), intent: 'danger' });
    },
  });
  const uploads = history.data?.data ?? [];
  const total = history.data?.meta?.total ?? uploads.length;

  return (
    <section className="sw-bulk-history" aria-labelledby="bulk-history-heading" data-testid="bulk-history">
      <div className="sw-bulk-toolbar">
        <h2 className="bp6-heading sw-bulk-heading" id="bulk-history-heading">
          {t('configuration.bulk.history.title')}
        </h2>
        <Pager
          page={page}
          pages={pageCount(total, HISTORY_PER_PAGE)}
          onPage={setPage}
          testId="bulk-history-pager"
        />
      </div>
      {history.isPending ? (
        <Spinner aria-label={t('common.loading')} />
      ) : history.isError && !history.data ? (
        <NonIdealState
          icon="error"
          description={t('common.somethingWentWrong')}
          action={<Button text={t('common.retry')} onClick={() => void history.refetch()} />}
        />
      ) : uploads.length === 0 ? (
        <NonIdealState icon="history" description={t('configuration.bulk.history.empty')} />
      ) : (
        <HTMLTable
          striped
          compact
          className="sw-bulk-history-table"
          aria-label={t('configuration.bulk.history.table')}
          data-testid="bulk-history-table"
        >
          <thead>
            <tr>
              <th scope="col">{t('configuration.bulk.history.by')}</th>
              <th scope="col">{t('configuration.bulk.history.at')}</th>
              <th scope="col">{t('configuration.bulk.history.file')}</th>
              <th scope="col">{t('configuration.bulk.history.status')}</th>
              <th scope="col">{t('configuration.bulk.history.rows')}</th>
              <th scope="col">{t('configuration.bulk.history.errorRows')}</th>
              <th scope="col">{t('configuration.bulk.history.rejected')}</th>
            </tr>
          </thead>
          <tbody>
            {uploads.map((upload) => (
              <tr key={upload.id} data-testid="bulk-history-row">
                <td>{upload.uploaded_by?.name ?? '-'}</td>
                <td dir="ltr" className="sw-bulk-number">
                  {formatUploadInstant(upload.created_at, timeZone)}
                </td>
                <td dir="auto">{upload.file_name}</td>
                <td>
                  <Tag minimal intent={STATUS_INTENT[upload.status]}>
                    {t(`configuration.bulk.status.${upload.status}`)}
                  </Tag>
                </td>
                <td className="sw-bulk-number">{formatCount(upload.row_count)}</td>
                <td className="sw-bulk-number">{formatCount(upload.error_row_count)}</td>
                <td>
                  {upload.error_row_count > 0 && (
                    <Button
                      variant="minimal"
                      size="small"
                      icon="download"
                      text={t('configuration.bulk.history.download')}
                      aria-label={t('configuration.bulk.history.downloadRejected', {
                        file: upload.file_name,
                      })}
                      loading={rejected.isPending && rejected.variables?.id === upload.id}
                      onClick={() => rejected.mutate(upload)}
                      data-testid="bulk-download-rejected"
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </section>
  );
}
