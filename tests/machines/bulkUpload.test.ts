import { describe, expect, it } from 'vitest';
import { createActor, type EventFrom, type SnapshotFrom } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { BulkKind } from '../../src/domain/bulkKinds';
import type { UploadSummary } from '../../src/domain/schemas/bulk';

/** UploadSummary's `kind` reads as never (BulkKindSchema is a union built by map); a kind stands in. */
const kindOf = (kind: BulkKind) => kind as UploadSummary['kind'];

import {
  type BulkUploadState,
  bulkUploadMachine,
  bulkUploadStateOf,
  selectCanCommit,
  selectCanUpload,
  selectTransferring,
} from '../../src/machines/bulkUpload.machine';

type Snapshot = SnapshotFrom<typeof bulkUploadMachine>;
type Event = EventFrom<typeof bulkUploadMachine>;
type Effect =
  | { type: 'requestUpload'; params: { uploadId: string; kind: string } }
  | { type: 'requestCommit'; params: { uploadId: string } }
  | { type: 'requestCancel'; params: { uploadId: string } }
  | { type: 'abortRequest' };

const ZIP = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]);
const ID = 'aaaaaaaa-1111-4111-8111-111111111111';

function summary(overrides: Partial<UploadSummary> = {}): UploadSummary {
  return {
    id: ID,
    site_id: 1,
    kind: kindOf('workers'),
    file_name: 'workers.xlsx',
    status: 'draft',
    row_count: 1234,
    error_row_count: 0,
    same_file_as: null,
    same_file_uploaded_at: null,
    uploaded_by: { id: 2, name: 'Site Admin' },
    created_at: '2026-01-05T08:00:00.000Z',
    committed_at: null,
    committed_by: null,
    ...overrides,
  };
}

const CLEAN = summary();
const WITH_ERRORS = summary({ error_row_count: 3 });

function start(input: { kind: 'workers'; uploadId?: string | null } = { kind: 'workers' }) {
  const effects: Effect[] = [];
  const machine = bulkUploadMachine.provide({
    actions: {
      requestUpload: (_, params) => void effects.push({ type: 'requestUpload', params }),
      requestCommit: (_, params) => void effects.push({ type: 'requestCommit', params }),
      requestCancel: (_, params) => void effects.push({ type: 'requestCancel', params }),
      abortRequest: () => void effects.push({ type: 'abortRequest' }),
    },
  });
  const actor = createActor(machine, { input }).start();
  return {
    actor,
    effects,
    state: () => bulkUploadStateOf(actor.getSnapshot()),
    send(event: Event): Effect[] {
      const before = effects.length;
      actor.send(event);
      return effects.slice(before);
    },
  };
}

describe('bulk upload machine', () => {
  it('uploads only an accepted file, and only when asked', () => {
    const sut = start();
    expect(selectCanUpload(sut.actor.getSnapshot())).toBe(false);
    sut.send({ type: 'file.choose', name: 'workers.csv', size: 10, head: ZIP });
    expect(sut.actor.getSnapshot().context.file?.check).toBe(1);
    expect(sut.send({ type: 'upload.start', uploadId: ID })).toEqual([]);
    sut.send({ type: 'file.choose', name: 'big.xlsx', size: 11 * 1024 * 1024, head: ZIP });
    expect(sut.actor.getSnapshot().context.file?.check).toBe(2);
    sut.send({ type: 'file.choose', name: 'renamed.xlsx', size: 10, head: new Uint8Array(8) });
    expect(sut.actor.getSnapshot().context.file?.check).toBe(1);
    sut.send({ type: 'file.choose', name: 'Workers.XLSX', size: 10, head: ZIP });
    expect(sut.state()).toBe('picking');
    expect(sut.send({ type: 'upload.start', uploadId: ID })).toEqual([
      { type: 'requestUpload', params: { uploadId: ID, kind: 'workers' } },
    ]);
    expect(sut.state()).toBe('uploading');
  });

  it('shows progress, then validating, then the draft; commit waits for no errors', () => {
    const sut = start();
    sut.send({ type: 'file.choose', name: 'w.xlsx', size: 10, head: ZIP });
    sut.send({ type: 'upload.start', uploadId: ID });
    sut.send({ type: 'upload.progress', loaded: 5, total: 10 });
    expect(sut.actor.getSnapshot().context.progress).toBe(0.5);
    expect(selectTransferring(sut.actor.getSnapshot())).toBe(true);
    sut.send({ type: 'upload.sent' });
    expect(sut.state()).toBe('validating');
    expect(sut.actor.getSnapshot().context.progress).toBeNull();
    sut.send({ type: 'upload.succeeded', upload: WITH_ERRORS });
    expect(sut.state()).toBe('draft');
    expect(selectCanCommit(sut.actor.getSnapshot())).toBe(false);
    expect(sut.send({ type: 'commit' })).toEqual([]);
    sut.send({ type: 'draft.updated', upload: CLEAN });
    expect(sut.send({ type: 'commit' })).toEqual([{ type: 'requestCommit', params: { uploadId: ID } }]);
    sut.send({ type: 'commit.succeeded', upload: summary({ status: 'committed' }) });
    expect(sut.state()).toBe('picking');
    expect(sut.actor.getSnapshot().context).toMatchObject({
      uploadId: null,
      upload: null,
      file: null,
      outcome: { type: 'committed' },
    });
  });

  it('a refused commit goes back to the draft with the re-checked summary', () => {
    const sut = start();
    sut.send({ type: 'file.choose', name: 'w.xlsx', size: 10, head: ZIP });
    sut.send({ type: 'upload.start', uploadId: ID });
    sut.send({ type: 'upload.succeeded', upload: CLEAN });
    sut.send({ type: 'commit' });
    sut.send({ type: 'commit.failed', message: 'Some rows have errors', upload: WITH_ERRORS });
    expect(sut.state()).toBe('draft');
    expect(sut.actor.getSnapshot().context).toMatchObject({
      error: 'Some rows have errors',
      upload: WITH_ERRORS,
    });
    expect(selectCanCommit(sut.actor.getSnapshot())).toBe(false);
  });

  it('cancel upload aborts the call and returns to the picker without a message', () => {
    const sut = start();
    sut.send({ type: 'file.choose', name: 'w.xlsx', size: 10, head: ZIP });
    sut.send({ type: 'upload.start', uploadId: ID });
    sut.send({ type: 'upload.sent' });
    expect(sut.send({ type: 'upload.cancel' })).toEqual([{ type: 'abortRequest' }]);
    expect(sut.state()).toBe('picking');
    expect(sut.actor.getSnapshot().context).toMatchObject({ error: null, uploadId: null });
    // The file stays chosen: Upload again sends it with a new id.
    expect(selectCanUpload(sut.actor.getSnapshot())).toBe(true);
  });

  it('cancelling a draft asks first', () => {
    const sut = start();
    sut.send({ type: 'file.choose', name: 'w.xlsx', size: 10, head: ZIP });
    sut.send({ type: 'upload.start', uploadId: ID });
    sut.send({ type: 'upload.succeeded', upload: CLEAN });
    expect(sut.send({ type: 'draft.cancel' })).toEqual([]);
    expect(sut.state()).toBe('confirmingCancel');
    sut.send({ type: 'cancel.back' });
    expect(sut.state()).toBe('draft');
    sut.send({ type: 'draft.cancel' });
    expect(sut.send({ type: 'cancel.confirm' })).toEqual([
      { type: 'requestCancel', params: { uploadId: ID } },
    ]);
    sut.send({ type: 'cancel.succeeded', upload: summary({ status: 'cancelled' }) });
    expect(sut.actor.getSnapshot().context.outcome?.type).toBe('cancelled');
  });

  it('a reload resumes the draft named in the address, or says it is no longer one', () => {
    const sut = start({ kind: 'workers', uploadId: ID });
    expect(sut.state()).toBe('resuming');
    sut.send({ type: 'draft.loaded', upload: summary({ id: 'bbbbbbbb-other', kind: kindOf('attendance') }) });
    expect(sut.state()).toBe('resuming');
    sut.send({ type: 'draft.loaded', upload: summary({ kind: kindOf('attendance') }) });
    expect(sut.state()).toBe('draft');
    expect(sut.actor.getSnapshot().context.kind).toBe('attendance');

    const done = start({ kind: 'workers', uploadId: ID });
    done.send({ type: 'draft.loaded', upload: summary({ status: 'committed' }) });
    expect(done.state()).toBe('picking');
    expect(done.actor.getSnapshot().context.error).toBe('The upload is no longer a draft');
  });

  it('another site drops the call in flight', () => {
    const sut = start();
    sut.send({ type: 'file.choose', name: 'w.xlsx', size: 10, head: ZIP });
    sut.send({ type: 'upload.start', uploadId: ID });
    expect(sut.send({ type: 'reset' })).toEqual([{ type: 'abortRequest' }]);
    expect(sut.actor.getSnapshot().context).toMatchObject({ file: null, uploadId: null });
  });
});

// ---- the model: every state reached, every event tried in every state.

const sampleEvents: Event[] = [
  { type: 'kind.select', kind: 'attendance' },
  { type: 'file.choose', name: 'w.xlsx', size: 10, head: ZIP },
  { type: 'file.choose', name: 'w.csv', size: 10, head: ZIP },
  { type: 'file.clear' },
  { type: 'upload.start', uploadId: ID },
  { type: 'upload.progress', loaded: 5, total: 10 },
  { type: 'upload.sent' },
  { type: 'upload.succeeded', upload: CLEAN },
  { type: 'upload.succeeded', upload: WITH_ERRORS },
  { type: 'upload.failed', message: "File type isn't supported." },
  { type: 'upload.cancel' },
  { type: 'commit' },
  { type: 'commit.succeeded', upload: summary({ status: 'committed' }) },
  { type: 'commit.failed', message: 'Some rows have errors', upload: WITH_ERRORS },
  { type: 'draft.cancel' },
  { type: 'cancel.confirm' },
  { type: 'cancel.back' },
  { type: 'cancel.succeeded', upload: summary({ status: 'cancelled' }) },
  { type: 'cancel.failed', message: 'Please try again' },
  { type: 'draft.updated', upload: CLEAN },
  { type: 'draft.updated', upload: summary({ status: 'committed' }) },
  { type: 'draft.loaded', upload: CLEAN },
  { type: 'draft.missing', message: 'Upload not found' },
  { type: 'reset' },
];

const model = createTestModel(bulkUploadMachine, {
  input: { kind: 'workers' },
  events: sampleEvents,
});

const bySnapshot = (state: Snapshot) => JSON.stringify({ value: state.value, context: state.context });

describe('bulk upload model', () => {
  const paths = model.getShortestPaths({ serializeState: bySnapshot, limit: 400 });

  it('reaches every state but resuming (only a reload starts there)', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.map((step) => bulkUploadStateOf(step.state))));
    expect([...reached].sort()).toEqual(
      (
        [
          'picking',
          'uploading',
          'validating',
          'draft',
          'confirmingCancel',
          'committing',
          'cancelling',
        ] as BulkUploadState[]
      ).sort(),
    );
  });

  it.each(paths.slice(0, 80).map((path, index) => [index, path] as const))(
    'path %i',
    async (_index, path) => {
      const sut = start();
      const agrees = (state: Snapshot) => {
        expect(sut.actor.getSnapshot().value).toEqual(state.value);
        expect(sut.actor.getSnapshot().context).toEqual(state.context);
      };
      const invariants = (state: Snapshot) => {
        agrees(state);
        const { context } = state;
        const value = bulkUploadStateOf(state);
        // A draft under review always has its summary; the picker never holds one.
        expect(context.upload !== null).toBe(!['picking', 'uploading', 'validating'].includes(value));
        // Commit is possible exactly when the draft has no row with errors.
        expect(selectCanCommit(state)).toBe(value === 'draft' && context.upload?.error_row_count === 0);
        // Upload is possible exactly in the picker with an accepted file.
        expect(selectCanUpload(state)).toBe(value === 'picking' && context.file?.check === 0);
      };
      await path.test({
        states: {
          picking: invariants,
          uploading: invariants,
          validating: invariants,
          draft: invariants,
          confirmingCancel: invariants,
          committing: invariants,
          cancelling: invariants,
        },
        events: Object.fromEntries(
          [...new Set(sampleEvents.map((event) => event.type))].map((type) => [
            type,
            (step: { event: { type: string } }) => {
              sut.actor.send(step.event as Event);
            },
          ]),
        ),
      });
    },
  );
});
