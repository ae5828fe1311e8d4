import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'wouter';
import { type BulkApi, draftRowsQuery, summaryOfError } from '../../api/bulkUploads';
import { isSilent } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import { BULK_KINDS, type BulkKind, bulkKind, isBulkKind } from '../../domain/bulkKinds';
import {
  bulkUploadMachine,
  selectKind,
  selectReviewing,
  selectUploadId,
  selectUploadState,
} from '../../machines/bulkUpload.machine';
import { notify } from '../notify';
import { machineRequests } from '../shared/machineRequests';
import { failureText } from '../shared/serverMessage';

/** The first bytes of a file the type check reads (an .xlsx starts as a zip). */
const HEAD_BYTES = 8;

/** A failure's text for the screen, or null when it is one to ignore (cancelled, offline, 401/403). */
function messageOrNull(error: unknown, fallback: string): string | null {
  return isSilent(error) ? null : failureText(error, fallback);
}

/**
 * The upload machine with its calls, the chosen File (kept here: the machine holds only its
 * name, size and check), and the page's address: `?kind=…&upload=…` names the kind and the draft
 * under review, so a reload shows the same draft.
 */
export function useBulkUpload(api: BulkApi, siteId: number | null) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const urlKind = params.get('kind');
  const file = useRef<File | null>(null);
  const [requests] = useState(machineRequests);
  const latest = useRef({ api, siteId, t });
  latest.current = { api, siteId, t };

  const [machine] = useState(() => {
    const fallback = () => latest.current.t('common.somethingWentWrong');
    const refreshHistory = (kind: BulkKind) => {
      const site = latest.current.siteId;
      if (site)
        void queryClient.invalidateQueries({ queryKey: queryKeys.bulkUploads.historyOfKind(site, kind) });
    };
    return bulkUploadMachine.provide({
      actions: {
        requestUpload: ({ self }, { uploadId, kind }) => {
          const chosen = file.current;
          const site = latest.current.siteId;
          if (!chosen || !site) {
            self.send({ type: 'upload.failed', message: null });
            return;
          }
          requests.run(
            (signal) =>
              latest.current.api.upload(site, bulkKind(kind), uploadId, chosen, chosen.name, {
                signal,
                onProgress: ({ loaded, total }) => self.send({ type: 'upload.progress', loaded, total }),
                onSent: () => self.send({ type: 'upload.sent' }),
              }),
            (upload) => {
              refreshHistory(kind);
              self.send({ type: 'upload.succeeded', upload });
            },
            (error) => self.send({ type: 'upload.failed', message: messageOrNull(error, fallback()) }),
          );
        },
        requestCommit: ({ self, context }, { uploadId }) => {
          const site = latest.current.siteId;
          if (!site) return;
          requests.run(
            (signal) => latest.current.api.commit(site, uploadId, signal),
            ({ upload }) => {
              refreshHistory(context.kind);
              void queryClient.invalidateQueries({ queryKey: queryKeys.bulkUploads.upload(site, uploadId) });
              self.send({ type: 'commit.succeeded', upload });
              void notify({
                message: latest.current.t('configuration.bulk.uploadSuccess'),
                intent: 'success',
              });
            },
            (error) => {
              // The rows were checked again: show them as they are now.
              void queryClient.invalidateQueries({ queryKey: queryKeys.bulkUploads.upload(site, uploadId) });
              self.send({
                type: 'commit.failed',
                message: messageOrNull(error, fallback()),
                upload: summaryOfError(error),
              });
            },
          );
        },
        requestCancel: ({ self, context }, { uploadId }) => {
          const site = latest.current.siteId;
          if (!site) return;
          requests.run(
            (signal) => latest.current.api.cancel(site, uploadId, signal),
            (upload) => {
              refreshHistory(context.kind);
              self.send({ type: 'cancel.succeeded', upload });
            },
            (error) => self.send({ type: 'cancel.failed', message: messageOrNull(error, fallback()) }),
          );
        },
        abortRequest: () => requests.abort(),
      },
    });
  });

  const actor = useActorRef(machine, {
    input: {
      kind: urlKind && isBulkKind(urlKind) ? urlKind : BULK_KINDS[0],
      uploadId: params.get('upload'),
    },
  });
  const state = useSelector(actor, selectUploadState);
  const kind = useSelector(actor, selectKind);
  const uploadId = useSelector(actor, selectUploadId);
  const reviewing = useSelector(actor, selectReviewing);

  // The draft's rows, a page at a time; the first page of a reloaded draft also resumes it.
  const [page, setPage] = useState(1);
  const [errorsOnly, setErrorsOnly] = useState(false);
  const showsRows = (state === 'resuming' || reviewing) && uploadId !== null && siteId !== null;
  const rows = useQuery({
    ...draftRowsQuery(api, siteId ?? 0, uploadId ?? '', { page, errorsOnly }),
    enabled: showsRows,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new upload opens at its first page, all rows.
  useEffect(() => {
    setPage(1);
    setErrorsOnly(false);
  }, [uploadId]);

  // Each page the server sends sums the draft up anew (its error count after a failed commit).
  const told = useRef<unknown>(null);
  useEffect(() => {
    if (!showsRows) return;
    if (rows.data && rows.data !== told.current) {
      told.current = rows.data;
      actor.send({
        type: state === 'resuming' ? 'draft.loaded' : 'draft.updated',
        upload: rows.data.upload,
      });
    } else if (!rows.data && rows.error && state === 'resuming') {
      actor.send({
        type: 'draft.missing',
        message: messageOrNull(rows.error, t('common.somethingWentWrong')),
      });
    }
  }, [rows.data, rows.error, state, showsRows, actor, t]);

  // The address follows the kind and the draft under review (replaced: Back leaves the screen).
  const reviewedId = reviewing || state === 'resuming' ? uploadId : null;
  useEffect(() => {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('kind', kind);
        if (reviewedId) next.set('upload', reviewedId);
        else next.delete('upload');
        return next;
      },
      { replace: true },
    );
  }, [kind, reviewedId, setParams]);

  // Another site: whatever was chosen or under review belonged to the old one.
  const previousSite = useRef(siteId);
  useEffect(() => {
    if (previousSite.current !== null && siteId !== null && previousSite.current !== siteId) {
      actor.send({ type: 'reset' });
    }
    if (siteId !== null) previousSite.current = siteId;
  }, [siteId, actor]);

  // Leaving the screen drops the call in flight (a draft on the server stays a draft).
  useEffect(() => () => requests.abort(), [requests]);

  const chooseFile = useCallback(
    async (chosen: File | null) => {
      file.current = chosen;
      if (!chosen) {
        actor.send({ type: 'file.clear' });
        return;
      }
      let head: Uint8Array | undefined;
      try {
        head = new Uint8Array(await chosen.slice(0, HEAD_BYTES).arrayBuffer());
      } catch {
        // Unreadable here (a file removed since): the server's check decides.
        head = undefined;
      }
      // Another file may have been chosen while this one was read.
      if (file.current !== chosen) return;
      actor.send({ type: 'file.choose', name: chosen.name, size: chosen.size, head });
    },
    [actor],
  );

  const changeErrorsOnly = useCallback((value: boolean) => {
    setErrorsOnly(value);
    setPage(1);
  }, []);

  return { actor, state, kind, rows, page, setPage, errorsOnly, setErrorsOnly: changeErrorsOnly, chooseFile };
}
