import { describe, expect, it } from 'vitest';
import {
  checkUploadFile,
  MAX_UPLOAD_BYTES,
  UPLOAD_FILE_MESSAGES,
  uploadFileMessage,
} from '../../src/domain/uploadFile';

const ZIP_HEAD = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]);
const OLE2_HEAD = Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const CSV_HEAD = new TextEncoder().encode('Name,Wor');

describe('upload file check', () => {
  it('accepts an .xlsx whatever the case of its extension', () => {
    expect(checkUploadFile({ name: 'workers.xlsx', size: 12_000 })).toBe(0);
    expect(checkUploadFile({ name: 'WORKERS.XLSX', size: 12_000 })).toBe(0);
    expect(checkUploadFile({ name: 'Crew list.Xlsx', size: 12_000, head: ZIP_HEAD })).toBe(0);
  });

  it.each([
    ['a .csv', 'workers.csv'],
    ['an .xls', 'workers.xls'],
    ['an .xlsx.exe', 'workers.xlsx.exe'],
    ['an .xlsm', 'workers.xlsm'],
    ['no name', ''],
    ['a name that is only the extension without a dot', 'xlsx'],
  ])('gives 1 (wrong type) for %s', (_label, name) => {
    expect(checkUploadFile({ name, size: 12_000 })).toBe(1);
  });

  it('gives 1 for a renamed .csv or an .xls renamed .xlsx, by their first bytes', () => {
    expect(checkUploadFile({ name: 'workers.xlsx', size: 12_000, head: CSV_HEAD })).toBe(1);
    expect(checkUploadFile({ name: 'workers.xlsx', size: 12_000, head: OLE2_HEAD })).toBe(1);
  });

  it('gives 1 when the first bytes are too few to be a zip', () => {
    expect(checkUploadFile({ name: 'workers.xlsx', size: 2, head: Uint8Array.from([0x50, 0x4b]) })).toBe(1);
  });

  it('accepts exactly 10 MB and gives 2 (too large) for one byte more', () => {
    expect(MAX_UPLOAD_BYTES).toBe(10 * 1024 * 1024);
    expect(checkUploadFile({ name: 'workers.xlsx', size: MAX_UPLOAD_BYTES, head: ZIP_HEAD })).toBe(0);
    expect(checkUploadFile({ name: 'workers.xlsx', size: MAX_UPLOAD_BYTES + 1, head: ZIP_HEAD })).toBe(2);
  });

  it('checks the type before the size: a wrong type that is also too large is 1', () => {
    expect(checkUploadFile({ name: 'workers.csv', size: MAX_UPLOAD_BYTES + 1 })).toBe(1);
    expect(checkUploadFile({ name: 'workers.xlsx', size: MAX_UPLOAD_BYTES + 1, head: OLE2_HEAD })).toBe(1);
  });

  it('words the messages as the spec does', () => {
    expect(uploadFileMessage(0)).toBeNull();
    expect(uploadFileMessage(1)).toBe("File type isn't supported.");
    expect(uploadFileMessage(2)).toBe("File size can't exceed 10 MB");
    expect(UPLOAD_FILE_MESSAGES).toEqual({
      tooLarge: "File size can't exceed 10 MB",
      wrongType: "File type isn't supported.",
    });
  });
});
