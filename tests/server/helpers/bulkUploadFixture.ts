import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import type { BulkKindDefinition } from '../../../src/domain/bulkKinds';
import type { TestApp } from './testApp';

/** An .xlsx whose first sheet is the kind's header and these rows (cells by column key). */
export async function kindWorkbook(
  definition: BulkKindDefinition,
  rows: readonly Record<string, string | number | Date | undefined>[],
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Upload');
  sheet.addRow(definition.columns.map((column) => column.label));
  for (const row of rows) sheet.addRow(definition.columns.map((column) => row[column.key] ?? null));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A multipart/form-data body with one file field, as a browser's FormData sends it. */
export function multipartFile(
  bytes: Buffer,
  fileName: string,
  field = 'file',
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----sitewatch${randomUUID().replaceAll('-', '')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
      'Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, bytes, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Uploads a file to the bulk sub-API under a new upload id; returns the reply and the id. */
export async function bulkUpload(
  t: TestApp,
  token: string,
  siteId: number,
  definition: BulkKindDefinition,
  bytes: Buffer,
  options: { fileName?: string; mode?: 'draft' | 'commit'; uploadId?: string } = {},
) {
  const uploadId = options.uploadId ?? randomUUID();
  const { payload, headers } = multipartFile(bytes, options.fileName ?? `${definition.kind}.xlsx`);
  const response = await t.call(token, {
    method: 'POST',
    url: `/bulk/api/sites/${siteId}/${definition.bulkPath}/${uploadId}${options.mode ? `?mode=${options.mode}` : ''}`,
    payload,
    headers: { ...headers, 'cache-control': 'no-cache', pragma: 'no-cache' },
  });
  return Object.assign(response, { uploadId });
}

/** Every row of a draft with its errors. */
export async function draftRows(t: TestApp, token: string, siteId: number, uploadId: string) {
  const response = await t.call(token, {
    method: 'GET',
    url: `/bulk/api/sites/${siteId}/uploads/${uploadId}?perPage=1000`,
  });
  return response.json.data.rows as {
    row_number: number;
    cells: Record<string, string>;
    errors: { column: string; message: string }[];
  }[];
}

export function commitDraft(t: TestApp, token: string, siteId: number, uploadId: string) {
  return t.call(token, { method: 'POST', url: `/bulk/api/sites/${siteId}/uploads/${uploadId}/commit` });
}
