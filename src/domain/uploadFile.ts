/**
 * The spec's upload file check, run by the console before it sends a file and by the server
 * before it reads one: "a type outside the allowed list gives result 1 (wrong type); an allowed
 * type above the size limit gives result 2 (too large); otherwise 0. Only .xlsx is accepted."
 */

/** The largest Excel upload: 10 MB. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export const UPLOAD_FILE_MESSAGES = {
  tooLarge: "File size can't exceed 10 MB",
  wrongType: "File type isn't supported.",
} as const;

/** 0: accepted; 1: wrong type; 2: too large. */
export type UploadFileCheck = 0 | 1 | 2;

export interface UploadFileFacts {
  name: string;
  size: number;
  /** The file's first bytes (at least 8), when the caller has them: the content must be a zip. */
  head?: Uint8Array;
}

/** An .xlsx is a zip archive: it starts with a local file header, "PK\x03\x04". */
const ZIP_LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04] as const;

function looksLikeZip(head: Uint8Array): boolean {
  return ZIP_LOCAL_HEADER.every((byte, index) => head[index] === byte);
}

/**
 * The type is checked before the size, so a file that is both of the wrong type and too large
 * is a wrong type. A renamed .csv or an old .xls (an OLE2 compound file) fails the content check.
 */
export function checkUploadFile({ name, size, head }: UploadFileFacts): UploadFileCheck {
  if (!name.toLowerCase().endsWith('.xlsx')) return 1;
  if (head !== undefined && !looksLikeZip(head)) return 1;
  if (size > MAX_UPLOAD_BYTES) return 2;
  return 0;
}

export function uploadFileMessage(result: UploadFileCheck): string | null {
  if (result === 1) return UPLOAD_FILE_MESSAGES.wrongType;
  if (result === 2) return UPLOAD_FILE_MESSAGES.tooLarge;
  return null;
}
