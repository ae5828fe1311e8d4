import { describe, expect, it, vi } from 'vitest';
import { createBulkApi, summaryOfError } from '../../src/api/bulkUploads';
import { isCancelled } from '../../src/api/client';
import { dispositionFileName } from '../../src/api/fileDownload';
import type { BulkKind } from '../../src/domain/bulkKinds';
import { BULK_KIND_DEFINITIONS, bulkKind } from '../../src/domain/bulkKinds';
import type { UploadSummary } from '../../src/domain/schemas/bulk';
import en from '../../src/i18n/en.json';

/** UploadSummary's `kind` reads as never (BulkKindSchema is a union built by map); a kind stands in. */
const kindOf = (kind: BulkKind) => kind as UploadSummary['kind'];

import {
  errorsByColumn,
  formatUploadInstant,
  pageCount,
  reviewColumns,
  rowErrorText,
  uploadCounts,
} from '../../src/views/configuration/bulkUploadText';

const ID = 'aaaaaaaa-1111-4111-8111-111111111111';
const SUMMARY: UploadSummary = {
  id: ID,
  site_id: 7,
  kind: kindOf('workers'),
  file_name: 'workers.xlsx',
  status: 'draft',
  row_count: 1234,
  error_row_count: 3,
  same_file_as: null,
  same_file_uploaded_at: null,
  uploaded_by: { id: 2, name: 'Site Admin' },
  created_at: '2026-01-05T08:00:00.000Z',
  committed_at: null,
  committed_by: null,
};

function jsonReply(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** An XMLHttpRequest stand-in: records what was sent and answers when told. */
class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  aborted = false;
  upload: { onprogress: ((event: ProgressEvent) => void) | null; onload: (() => void) | null } = {
    onprogress: null,
    onload: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  answer(status: number, body: unknown) {
    this.upload.onprogress?.({ lengthComputable: true, loaded: 10, total: 10 } as ProgressEvent);
    this.upload.onload?.();
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

function api(fetchImpl: typeof fetch = vi.fn()) {
  return createBulkApi({
    getToken: () => 'token-1',
    fetch: fetchImpl,
    createXhr: () => new FakeXhr() as unknown as XMLHttpRequest,
  });
}

describe('bulk API', () => {
  it('sends the bearer token and the no-cache headers, and reads a draft page', async () => {
    const fetchImpl = vi.fn(async () =>
      jsonReply(200, {
        status: 'success',
        data: { upload: SUMMARY, rows: [] },
        meta: { page: 1, perPage: 100, total: 0 },
      }),
    );
    const draft = await api(fetchImpl as unknown as typeof fetch).draftRows(7, ID, {
      page: 2,
      errorsOnly: true,
    });
    expect(draft.upload.id).toBe(ID);
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(`/bulk/api/sites/7/uploads/${ID}?page=2&perPage=100&errors_only=true`);
    expect(init.headers).toMatchObject({
      Authorization: 'Bearer token-1',
      'Cache-Control': 'no-cache',
      Pragma: 'no-cache',
      'X-Requested-With': 'XMLHttpRequest',
    });
  });

  it('lists a kind’s history on its list path', async () => {
    const fetchImpl = vi.fn(async () =>
      jsonReply(200, { status: 'success', data: [SUMMARY], meta: { page: 1, perPage: 20, total: 1 } }),
    );
    const reply = await api(fetchImpl as unknown as typeof fetch).history(
      7,
      bulkKind('workerStatusAssignments'),
      1,
    );
    expect(reply.data).toHaveLength(1);
    expect((fetchImpl.mock.calls[0] as unknown as [string])[0]).toBe(
      '/bulk/api/sites/7/workers/worker-status/bulk/list?page=1&perPage=20',
    );
  });

  it('uploads the file as multipart field "file" with progress, and resolves to the summary', async () => {
    const progress: number[] = [];
    const sent = vi.fn();
    const file = new Blob([new Uint8Array([0x50, 0x4b, 3, 4])]);
    const pending = api().upload(7, bulkKind('workers'), ID, file, 'w.xlsx', {
      onProgress: ({ loaded, total }) => progress.push(loaded / total),
      onSent: sent,
    });
    const xhr = FakeXhr.last!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe(`/bulk/api/sites/7/workers/bulk/${ID}?mode=draft`);
    expect(xhr.headers).toMatchObject({
      Authorization: 'Bearer token-1',
      'Cache-Control': 'no-cache',
      Pragma: 'no-cache',
    });
    expect((xhr.body!.get('file') as File).name).toBe('w.xlsx');
    xhr.answer(200, { status: 'success', data: SUMMARY });
    await expect(pending).resolves.toEqual(SUMMARY);
    expect(progress).toEqual([1]);
    expect(sent).toHaveBeenCalledOnce();
  });

  it('rejects with the server message on 415, and with USER_CANCELLED when aborted', async () => {
    const refused = api().upload(7, bulkKind('workers'), ID, new Blob(['x']), 'w.xlsx');
    FakeXhr.last!.answer(415, { status: 'error', message: "File type isn't supported." });
    await expect(refused).rejects.toMatchObject({
      kind: 'http',
      status: 415,
      message: "File type isn't supported.",
    });

    const controller = new AbortController();
    const cancelled = api().upload(7, bulkKind('workers'), ID, new Blob(['x']), 'w.xlsx', {
      signal: controller.signal,
    });
    controller.abort();
    const error = await cancelled.catch((reason: unknown) => reason);
    expect(isCancelled(error)).toBe(true);
    expect(error).toMatchObject({ marker: 'USER_CANCELLED' });
    expect(FakeXhr.last!.aborted).toBe(true);
  });

  it('commits with the server message, and a refused commit carries the re-checked summary', async () => {
    const ok = vi.fn(async () =>
      jsonReply(200, {
        status: 'success',
        message: 'Upload Success',
        data: { ...SUMMARY, status: 'committed' },
      }),
    );
    await expect(api(ok as unknown as typeof fetch).commit(7, ID)).resolves.toMatchObject({
      message: 'Upload Success',
      upload: { status: 'committed' },
    });
    const refused = vi.fn(async () =>
      jsonReply(422, { status: 'error', message: 'Some rows have errors', data: SUMMARY }),
    );
    const error = await api(refused as unknown as typeof fetch)
      .commit(7, ID)
      .catch((reason: unknown) => reason);
    expect(summaryOfError(error)).toEqual(SUMMARY);
    expect(summaryOfError(new Error('x'))).toBeNull();
  });

  it('downloads the template as <kind>-template.xlsx with the no-cache headers', async () => {
    const fetchImpl = vi.fn(async () => new Response(new Blob(['PK']), { status: 200 }));
    const file = await api(fetchImpl as unknown as typeof fetch).template(7, bulkKind('crewGroups'));
    expect(file.fileName).toBe('crewGroups-template.xlsx');
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/bulk/api/sites/7/crew/bulk/template');
    expect(init.headers).toMatchObject({ 'Cache-Control': 'no-cache', Pragma: 'no-cache' });
  });

  it('reads a Content-Disposition file name', () => {
    expect(dispositionFileName('attachment; filename="rejected.xlsx"', 'x')).toBe('rejected.xlsx');
    expect(dispositionFileName("attachment; filename*=UTF-8''%D9%85.xlsx", 'x')).toBe('م.xlsx');
    expect(dispositionFileName(null, 'fallback.xlsx')).toBe('fallback.xlsx');
  });
});

describe('bulk upload texts', () => {
  it('groups counts with commas and pages at least one', () => {
    expect(uploadCounts({ row_count: 1234, error_row_count: 3 })).toEqual({ rows: '1,234', errors: '3' });
    expect(pageCount(0, 100)).toBe(1);
    expect(pageCount(1234, 100)).toBe(13);
  });

  it('shows instants on the site clock as YYYY-MM-DD HH:MM:SS', () => {
    expect(formatUploadInstant('2026-01-05T08:00:00.000Z', 'Asia/Dubai')).toBe('2026-01-05 12:00:00');
    expect(formatUploadInstant('not a date', 'UTC')).toBe('not a date');
  });

  it('groups a row’s errors by column and lists each message once', () => {
    const row = {
      row_number: 4,
      cells: { name: '' },
      errors: [
        { column: 'name', message: 'Name is required' },
        { column: '', message: 'Worker name already exists!' },
        { column: 'name', message: 'Name is required' },
      ],
    };
    expect(errorsByColumn(row).get('name')).toEqual(['Name is required', 'Name is required']);
    expect(rowErrorText(row)).toBe('Name is required; Worker name already exists!');
  });

  it('has the row number, each kind column, then the errors', () => {
    const keys = reviewColumns(bulkKind('attendance')).map((column) => column.key);
    expect(keys).toEqual(['row_number', ...bulkKind('attendance').columns.map((c) => c.key), 'errors']);
  });

  it('names each kind in English by its definition’s label', () => {
    for (const definition of BULK_KIND_DEFINITIONS) {
      expect(en.configuration.bulk.kinds[definition.kind]).toBe(definition.label);
    }
  });
});
