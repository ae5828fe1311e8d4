import { assign, type SnapshotFrom, setup } from 'xstate';
import { BULK_MESSAGES, type BulkKind } from '../domain/bulkKinds';
import type { UploadSummary } from '../domain/schemas/bulk';
import { checkUploadFile, type UploadFileCheck } from '../domain/uploadFile';

/**
 * An Excel upload of the bulk sub-API, from the file picker to a committed or cancelled draft
 * (spec §2: one .xlsx, nothing sent until Upload). Pure: the calls are the named actions
 * `requestUpload`, `requestCommit` and `requestCancel`, which the view provides and answers with
 * the events below; `abortRequest` drops the call in flight, whose answer then never comes.
 *
 * picking ──upload.start (file accepted)──▶ uploading ──upload.sent──▶ validating
 * uploading | validating ──upload.succeeded──▶ draft | upload.failed, upload.cancel ──▶ picking
 * draft ──commit (no row with errors)──▶ committing ──commit.succeeded──▶ picking (committed)
 *                                                   └─commit.failed──▶ draft (its rows re-checked)
 * draft ──draft.cancel──▶ confirmingCancel ──cancel.confirm──▶ cancelling ──▶ picking (cancelled)
 * resuming (a reload with the draft's id) ──draft.loaded──▶ draft | draft.missing ──▶ picking
 * any ──reset (another site)──▶ picking, whatever was in flight dropped
 */

export interface ChosenFile {
  name: string;
  size: number;
  /** checkUploadFile's result on its name, size and first bytes. */
  check: UploadFileCheck;
}

export type UploadOutcome = 'committed' | 'cancelled';

export interface BulkUploadInput {
  kind: BulkKind;
  /** A draft's id from the page's address: the screen was reloaded while reviewing it. */
  uploadId?: string | null;
}

export interface BulkUploadContext {
  kind: BulkKind;
  file: ChosenFile | null;
  /** The id of the upload in flight or under review. */
  uploadId: string | null;
  /** Share of the file sent (0 to 1) while uploading; null while the server checks it. */
  progress: number | null;
  /** The draft under review, as the server last summed it up. */
  upload: UploadSummary | null;
  /** The last failure's message; null when there is none to show (a cancel, no network). */
  error: string | null;
  /** How the last draft ended, with its summary, for the note above the picker. */
  outcome: { type: UploadOutcome; upload: UploadSummary | null } | null;
}

export type BulkUploadEvent =
  | { type: 'kind.select'; kind: BulkKind }
  | { type: 'file.choose'; name: string; size: number; head?: Uint8Array }
  | { type: 'file.clear' }
  | { type: 'upload.start'; uploadId: string }
  | { type: 'upload.progress'; loaded: number; total: number }
  | { type: 'upload.sent' }
  | { type: 'upload.succeeded'; upload: UploadSummary }
  | { type: 'upload.failed'; message: string | null }
  | { type: 'upload.cancel' }
  | { type: 'draft.loaded'; upload: UploadSummary }
  | { type: 'draft.missing'; message: string | null }
  | { type: 'draft.updated'; upload: UploadSummary }
  | { type: 'commit' }
  | { type: 'commit.succeeded'; upload: UploadSummary }
  | { type: 'commit.failed'; message: string | null; upload?: UploadSummary | null }
  | { type: 'draft.cancel' }
  | { type: 'cancel.confirm' }
  | { type: 'cancel.back' }
  | { type: 'cancel.succeeded'; upload: UploadSummary | null }
  | { type: 'cancel.failed'; message: string | null }
  | { type: 'reset' };

export interface UploadRequest {
  uploadId: string;
  kind: BulkKind;
}

const DROPPED = { uploadId: null, progress: null, upload: null } satisfies Partial<BulkUploadContext>;

export const bulkUploadMachine = setup({
  types: {
    context: {} as BulkUploadContext,
    events: {} as BulkUploadEvent,
    input: {} as BulkUploadInput,
  },
  actions: {
    selectKind: assign(({ event }) =>
      event.type === 'kind.select' ? { kind: event.kind, file: null, error: null, outcome: null } : {},
    ),
    chooseFile: assign(({ event }) =>
      event.type === 'file.choose'
        ? {
            file: { name: event.name, size: event.size, check: checkUploadFile(event) },
            error: null,
            outcome: null,
          }
        : {},
    ),
    clearFile: assign({ file: null, error: null }),
    startUpload: assign(({ event }) =>
      event.type === 'upload.start'
        ? { uploadId: event.uploadId, progress: 0, error: null, outcome: null }
        : {},
    ),
    setProgress: assign({
      progress: ({ context, event }) =>
        event.type === 'upload.progress' && event.total > 0
          ? Math.min(1, Math.max(0, event.loaded / event.total))
          : context.progress,
    }),
    sent: assign({ progress: null }),
    openDraft: assign(({ event }) =>
      event.type === 'upload.succeeded' || event.type === 'draft.loaded'
        ? {
            upload: event.upload,
            uploadId: event.upload.id,
            kind: event.upload.kind,
            progress: null,
            error: null,
          }
        : {},
    ),
    updateDraft: assign({
      upload: ({ context, event }) => (event.type === 'draft.updated' ? event.upload : context.upload),
    }),
    fail: assign(({ event }) =>
      'message' in event ? { ...DROPPED, error: event.message } : { ...DROPPED, error: null },
    ),
    drop: assign({ ...DROPPED, error: null }),
    noLongerDraft: assign({ ...DROPPED, file: null, error: BULK_MESSAGES.notDraft }),
    commitFailed: assign(({ context, event }) =>
      event.type === 'commit.failed' ? { error: event.message, upload: event.upload ?? context.upload } : {},
    ),
    cancelFailed: assign({
      error: ({ event }) => (event.type === 'cancel.failed' ? event.message : null),
    }),
    clearError: assign({ error: null }),
    committed: assign(({ context, event }) => ({
      ...DROPPED,
      file: null,
      error: null,
      outcome: {
        type: 'committed' as const,
        upload: event.type === 'commit.succeeded' ? event.upload : context.upload,
      },
    })),
    cancelled: assign(({ context, event }) => ({
      ...DROPPED,
      file: null,
      error: null,
      outcome: {
        type: 'cancelled' as const,
        upload: event.type === 'cancel.succeeded' ? (event.upload ?? context.upload) : context.upload,
      },
    })),
    reset: assign({ ...DROPPED, file: null, error: null, outcome: null }),
    /** Provided by the view: POST the chosen file as a draft; answered by upload.* events. */
    requestUpload: (_, _params: UploadRequest) => {},
    /** Provided by the view: POST …/uploads/{id}/commit; answered by commit.succeeded / commit.failed. */
    requestCommit: (_, _params: { uploadId: string }) => {},
    /** Provided by the view: POST …/uploads/{id}/cancel; answered by cancel.succeeded / cancel.failed. */
    requestCancel: (_, _params: { uploadId: string }) => {},
    /** Provided by the view: aborts the call in flight, whose answer then never comes. */
    abortRequest: () => {},
  },
  guards: {
    fileAccepted: ({ context }) => context.file?.check === 0,
    hasNoErrors: ({ context }) =>
      context.upload !== null && context.upload.status === 'draft' && context.upload.error_row_count === 0,
    isDraft: ({ event }) =>
      (event.type === 'draft.loaded' || event.type === 'draft.updated') && event.upload.status === 'draft',
    /** An answer about another upload than the one resumed (an older page's): ignored. */
    isOtherUpload: ({ context, event }) =>
      event.type === 'draft.loaded' && event.upload.id !== context.uploadId,
    hasUploadId: ({ context }) => context.uploadId !== null,
  },
}).createMachine({
  id: 'bulkUpload',
  context: ({ input }) => ({
    kind: input.kind,
    file: null,
    uploadId: input.uploadId ?? null,
    progress: null,
    upload: null,
    error: null,
    outcome: null,
  }),
  initial: 'start',
  on: {
    reset: { target: '.picking', actions: ['abortRequest', 'reset'] },
  },
  states: {
    start: {
      always: [{ guard: 'hasUploadId', target: 'resuming' }, { target: 'picking' }],
    },
    picking: {
      on: {
        'kind.select': { actions: 'selectKind' },
        'file.choose': { actions: 'chooseFile' },
        'file.clear': { actions: 'clearFile' },
        'upload.start': {
          guard: 'fileAccepted',
          target: 'uploading',
          actions: [
            'startUpload',
            {
              type: 'requestUpload',
              params: ({ context }) => ({ uploadId: context.uploadId!, kind: context.kind }),
            },
          ],
        },
      },
    },
    resuming: {
      tags: ['busy'],
      on: {
        'draft.loaded': [
          { guard: 'isOtherUpload' },
          { guard: 'isDraft', target: 'draft', actions: 'openDraft' },
          { target: 'picking', actions: 'noLongerDraft' },
        ],
        'draft.missing': { target: 'picking', actions: 'fail' },
      },
    },
    uploading: {
      tags: ['busy', 'transfer'],
      on: {
        'upload.progress': { actions: 'setProgress' },
        'upload.sent': { target: 'validating', actions: 'sent' },
        'upload.succeeded': { target: 'draft', actions: 'openDraft' },
        'upload.failed': { target: 'picking', actions: 'fail' },
        'upload.cancel': { target: 'picking', actions: ['abortRequest', 'drop'] },
      },
    },
    validating: {
      tags: ['busy', 'transfer'],
      on: {
        'upload.succeeded': { target: 'draft', actions: 'openDraft' },
        'upload.failed': { target: 'picking', actions: 'fail' },
        'upload.cancel': { target: 'picking', actions: ['abortRequest', 'drop'] },
      },
    },
    draft: {
      tags: ['review'],
      on: {
        'draft.updated': [
          { guard: 'isDraft', actions: 'updateDraft' },
          { target: 'picking', actions: 'noLongerDraft' },
        ],
        commit: {
          guard: 'hasNoErrors',
          target: 'committing',
          actions: [
            'clearError',
            { type: 'requestCommit', params: ({ context }) => ({ uploadId: context.uploadId! }) },
          ],
        },
        'draft.cancel': { target: 'confirmingCancel', actions: 'clearError' },
      },
    },
    confirmingCancel: {
      tags: ['review'],
      on: {
        'draft.updated': { guard: 'isDraft', actions: 'updateDraft' },
        'cancel.confirm': {
          target: 'cancelling',
          actions: { type: 'requestCancel', params: ({ context }) => ({ uploadId: context.uploadId! }) },
        },
        'cancel.back': { target: 'draft' },
      },
    },
    committing: {
      tags: ['busy', 'review'],
      on: {
        'commit.succeeded': { target: 'picking', actions: 'committed' },
        'commit.failed': { target: 'draft', actions: 'commitFailed' },
      },
    },
    cancelling: {
      tags: ['busy', 'review'],
      on: {
        'cancel.succeeded': { target: 'picking', actions: 'cancelled' },
        'cancel.failed': { target: 'draft', actions: 'cancelFailed' },
      },
    },
  },
});

export type BulkUploadSnapshot = SnapshotFrom<typeof bulkUploadMachine>;
export type BulkUploadState =
  | 'picking'
  | 'resuming'
  | 'uploading'
  | 'validating'
  | 'draft'
  | 'confirmingCancel'
  | 'committing'
  | 'cancelling';

export function bulkUploadStateOf(snapshot: BulkUploadSnapshot): BulkUploadState {
  return snapshot.value as BulkUploadState;
}

// Selectors for useSelector: each button's enabled state comes from the machine (state.can).
export const selectUploadState = bulkUploadStateOf;
export const selectKind = (snapshot: BulkUploadSnapshot) => snapshot.context.kind;
export const selectFile = (snapshot: BulkUploadSnapshot) => snapshot.context.file;
export const selectUploadId = (snapshot: BulkUploadSnapshot) => snapshot.context.uploadId;
export const selectProgress = (snapshot: BulkUploadSnapshot) => snapshot.context.progress;
export const selectDraft = (snapshot: BulkUploadSnapshot) => snapshot.context.upload;
export const selectError = (snapshot: BulkUploadSnapshot) => snapshot.context.error;
export const selectOutcome = (snapshot: BulkUploadSnapshot) => snapshot.context.outcome;
export const selectBusy = (snapshot: BulkUploadSnapshot) => snapshot.hasTag('busy');
/** The file is going up or being checked: the progress bar and "Cancel upload" show. */
export const selectTransferring = (snapshot: BulkUploadSnapshot) => snapshot.hasTag('transfer');
/** A draft is under review (its table shows). */
export const selectReviewing = (snapshot: BulkUploadSnapshot) => snapshot.hasTag('review');
export const selectCanPick = (snapshot: BulkUploadSnapshot) => snapshot.can({ type: 'file.clear' });
export const selectCanUpload = (snapshot: BulkUploadSnapshot) =>
  snapshot.can({ type: 'upload.start', uploadId: 'probe' });
export const selectCanCommit = (snapshot: BulkUploadSnapshot) => snapshot.can({ type: 'commit' });
export const selectCanCancelDraft = (snapshot: BulkUploadSnapshot) => snapshot.can({ type: 'draft.cancel' });
export const selectConfirmingCancel = (snapshot: BulkUploadSnapshot) => snapshot.matches('confirmingCancel');
