/**
 * The central directory of an uploaded zip (an .xlsx), read and judged before a single byte is
 * inflated: a hostile file is refused on what it declares (entry count, sizes, compression ratio,
 * names, overlapping entries, ZIP64), and cappedInflate.ts then holds each entry to its declared
 * size while inflating, because declared sizes can lie.
 */

export type ZipRefusalReason =
  /** Not a zip archive at all, or one this reader cannot read. */
  | 'notZip'
  | 'unreadable'
  /** Expands (or says it expands) beyond the limits: a zip bomb or not a normal spreadsheet. */
  | 'tooLarge'
  /** A part named outside the archive (`..`, an absolute path) or a ZIP64 archive. */
  | 'refused';

export class ZipRefused extends Error {
  constructor(
    readonly reason: ZipRefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'ZipRefused';
  }
}

export interface ZipLimits {
  maxEntries: number;
  /** Most bytes one entry may declare (and produce) uncompressed. */
  maxEntryBytes: number;
  /** Most bytes all entries together may declare uncompressed. */
  maxTotalBytes: number;
  /** Highest uncompressed-to-compressed ratio of an entry above `ratioCheckFromBytes`. */
  maxRatio: number;
  ratioCheckFromBytes: number;
}

export type ZipMethod = 'stored' | 'deflated';

export interface ZipEntry {
  name: string;
  method: ZipMethod;
  compressedSize: number;
  /** As the central directory declares it; the inflater refuses to produce more. */
  uncompressedSize: number;
  /** Where the entry's compressed data starts in the archive (after its local header). */
  dataOffset: number;
}

export interface ZipDirectory {
  entries: readonly ZipEntry[];
  /** OPC part names are case-insensitive: `XL/Workbook.xml` is `xl/workbook.xml`. */
  find(name: string): ZipEntry | undefined;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_END_LOCATOR = 0x07064b50;
const CENTRAL_DIRECTORY_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const END_RECORD_BYTES = 22;
const CENTRAL_HEADER_BYTES = 46;
const LOCAL_HEADER_BYTES = 30;
const MAX_COMMENT_BYTES = 0xffff;
const ZIP64_EXTRA_FIELD = 0x0001;
const ENCRYPTED_FLAG = 0x0001;
const UTF8_NAME_FLAG = 0x0800;

const MIB = 1024 * 1024;

export const ZIP_MESSAGES = {
  unreadable: 'The file could not be read as an Excel workbook',
  zip64: 'The file is a ZIP64 archive, which an Excel workbook of this size never is; it is not accepted',
  unsafeName: 'The file has a part named outside the workbook; it is not accepted',
  tooManyEntries: (limit: number) =>
    `The file has more than ${limit.toLocaleString('en-US')} parts; it is not a normal spreadsheet`,
  entryTooLarge: (limit: number) =>
    `A part of the file expands to more than ${limit / MIB} MB; it is not a normal spreadsheet`,
  totalTooLarge: (limit: number) =>
    `The file expands to more than ${limit / MIB} MB; it is not a normal spreadsheet`,
  ratioTooHigh: (limit: number) =>
    `A part of the file is compressed more than ${limit} to 1; it is not a normal spreadsheet`,
  sizeLie: 'A part of the file expands to more than the size it states; it is not a normal spreadsheet',
} as const;

function unreadable(): ZipRefused {
  return new ZipRefused('unreadable', ZIP_MESSAGES.unreadable);
}

function findEndRecord(bytes: Buffer): number {
  const lowest = Math.max(0, bytes.length - END_RECORD_BYTES - MAX_COMMENT_BYTES);
  for (let offset = bytes.length - END_RECORD_BYTES; offset >= lowest; offset--) {
    if (bytes.readUInt32LE(offset) !== END_OF_CENTRAL_DIRECTORY) continue;
    const commentLength = bytes.readUInt16LE(offset + 20);
    if (offset + END_RECORD_BYTES + commentLength <= bytes.length) return offset;
  }
  throw new ZipRefused('notZip', ZIP_MESSAGES.unreadable);
}

function isUnsafeName(name: string): boolean {
  if (name.includes('\0')) return true;
  if (name.startsWith('/') || name.startsWith('\\') || /^[a-zA-Z]:/.test(name)) return true;
  return name.split(/[/\\]/).some((segment) => segment === '..');
}

function hasZip64Extra(extra: Buffer): boolean {
  for (let offset = 0; offset + 4 <= extra.length; ) {
    if (extra.readUInt16LE(offset) === ZIP64_EXTRA_FIELD) return true;
    offset += 4 + extra.readUInt16LE(offset + 2);
  }
  return false;
}

function localDataOffset(bytes: Buffer, headerOffset: number, compressedSize: number, limit: number): number {
  if (headerOffset + LOCAL_HEADER_BYTES > limit) throw unreadable();
  if (bytes.readUInt32LE(headerOffset) !== LOCAL_FILE_HEADER) throw unreadable();
  const nameLength = bytes.readUInt16LE(headerOffset + 26);
  const extraLength = bytes.readUInt16LE(headerOffset + 28);
  const dataOffset = headerOffset + LOCAL_HEADER_BYTES + nameLength + extraLength;
  if (dataOffset + compressedSize > limit) throw unreadable();
  return dataOffset;
}

interface PlacedEntry extends ZipEntry {
  headerOffset: number;
}

function checkSizes(entries: readonly ZipEntry[], limits: ZipLimits): void {
  let total = 0;
  for (const entry of entries) {
    if (entry.uncompressedSize > limits.maxEntryBytes) {
      throw new ZipRefused('tooLarge', ZIP_MESSAGES.entryTooLarge(limits.maxEntryBytes));
    }
    total += entry.uncompressedSize;
    if (total > limits.maxTotalBytes) {
      throw new ZipRefused('tooLarge', ZIP_MESSAGES.totalTooLarge(limits.maxTotalBytes));
    }
    if (
      entry.uncompressedSize > limits.ratioCheckFromBytes &&
      entry.uncompressedSize > entry.compressedSize * limits.maxRatio
    ) {
      throw new ZipRefused('tooLarge', ZIP_MESSAGES.ratioTooHigh(limits.maxRatio));
    }
  }
}

/**
 * Two entries sharing compressed bytes is how the best-known zip bombs reach a billion-to-one
 * ratio with honest-looking entries; no spreadsheet writer does it.
 */
function checkNoOverlap(entries: PlacedEntry[], centralDirectoryOffset: number): void {
  const byPlace = [...entries].sort((a, b) => a.headerOffset - b.headerOffset);
  byPlace.forEach((entry, index) => {
    const nextStart = byPlace[index + 1]?.headerOffset ?? centralDirectoryOffset;
    if (entry.dataOffset + entry.compressedSize > nextStart) throw unreadable();
  });
}

export function readZipDirectory(bytes: Buffer, limits: ZipLimits): ZipDirectory {
  if (bytes.length < END_RECORD_BYTES) throw new ZipRefused('notZip', ZIP_MESSAGES.unreadable);
  const end = findEndRecord(bytes);
  if (end >= 20 && bytes.readUInt32LE(end - 20) === ZIP64_END_LOCATOR) {
    throw new ZipRefused('refused', ZIP_MESSAGES.zip64);
  }
  const diskNumber = bytes.readUInt16LE(end + 4);
  const directoryDisk = bytes.readUInt16LE(end + 6);
  const entriesOnDisk = bytes.readUInt16LE(end + 8);
  const entryCount = bytes.readUInt16LE(end + 10);
  const directorySize = bytes.readUInt32LE(end + 12);
  const directoryOffset = bytes.readUInt32LE(end + 16);
  if (entryCount === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    throw new ZipRefused('refused', ZIP_MESSAGES.zip64);
  }
  if (diskNumber !== 0 || directoryDisk !== 0 || entriesOnDisk !== entryCount) throw unreadable();
  if (directoryOffset + directorySize > end) throw unreadable();
  // Refused before the entries are walked, so a directory of a million entries costs nothing.
  if (entryCount > limits.maxEntries) {
    throw new ZipRefused('tooLarge', ZIP_MESSAGES.tooManyEntries(limits.maxEntries));
  }

  const entries: PlacedEntry[] = [];
  const byName = new Map<string, PlacedEntry>();
  let offset = directoryOffset;
  for (let index = 0; index < entryCount; index++) {
    if (offset + CENTRAL_HEADER_BYTES > directoryOffset + directorySize) throw unreadable();
    if (bytes.readUInt32LE(offset) !== CENTRAL_DIRECTORY_HEADER) throw unreadable();
    const flags = bytes.readUInt16LE(offset + 8);
    const method = bytes.readUInt16LE(offset + 10);
    const compressedSize = bytes.readUInt32LE(offset + 20);
    const uncompressedSize = bytes.readUInt32LE(offset + 24);
    const nameLength = bytes.readUInt16LE(offset + 28);
    const extraLength = bytes.readUInt16LE(offset + 30);
    const commentLength = bytes.readUInt16LE(offset + 32);
    const headerOffset = bytes.readUInt32LE(offset + 42);
    const nameStart = offset + CENTRAL_HEADER_BYTES;
    const next = nameStart + nameLength + extraLength + commentLength;
    if (next > directoryOffset + directorySize) throw unreadable();

    const rawName = bytes.subarray(nameStart, nameStart + nameLength);
    const name = rawName.toString(flags & UTF8_NAME_FLAG ? 'utf8' : 'latin1');
    const extra = bytes.subarray(nameStart + nameLength, nameStart + nameLength + extraLength);
    if (
      compressedSize === 0xffffffff ||
      uncompressedSize === 0xffffffff ||
      headerOffset === 0xffffffff ||
      hasZip64Extra(extra)
    ) {
      throw new ZipRefused('refused', ZIP_MESSAGES.zip64);
    }
    if (isUnsafeName(name)) throw new ZipRefused('refused', ZIP_MESSAGES.unsafeName);
    if (flags & ENCRYPTED_FLAG) throw unreadable();
    if (method !== 0 && method !== 8) throw unreadable();
    if (method === 0 && compressedSize !== uncompressedSize) throw unreadable();

    const entry: PlacedEntry = {
      name,
      method: method === 0 ? 'stored' : 'deflated',
      compressedSize,
      uncompressedSize,
      headerOffset,
      dataOffset: localDataOffset(bytes, headerOffset, compressedSize, directoryOffset),
    };
    const key = name.toLowerCase();
    if (byName.has(key)) throw unreadable();
    byName.set(key, entry);
    entries.push(entry);
    offset = next;
  }

  checkSizes(entries, limits);
  checkNoOverlap(entries, directoryOffset);
  return {
    entries,
    find: (name) => byName.get(name.toLowerCase()),
  };
}
