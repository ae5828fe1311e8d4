import { Readable } from 'node:stream';
import { crc32, createDeflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Hand-written zips for the .xlsx reader's tests: honest ones, and the hostile ones no zip library
 * will write (a directory that understates an entry's size, a billion-to-one bomb built without
 * holding it inflated). Independent of server/bulk/zipDirectory.ts, which it tests.
 */

export interface ZipWriterEntry {
  name: string;
  /** The entry's content; deflated here unless `stored`. */
  data?: Buffer;
  stored?: boolean;
  /** Content deflated beforehand (see deflateStreaming), with its true size and CRC. */
  deflated?: DeflatedContent;
  /** A size for the local header and central directory other than the true one. */
  declaredSize?: number;
}

export interface DeflatedContent {
  bytes: Buffer;
  size: number;
  crc32: number;
}

const UTF8_NAME_FLAG = 0x0800;

function entryContent(entry: ZipWriterEntry): {
  method: number;
  compressed: Buffer;
  size: number;
  crc: number;
} {
  if (entry.deflated !== undefined) {
    return {
      method: 8,
      compressed: entry.deflated.bytes,
      size: entry.deflated.size,
      crc: entry.deflated.crc32,
    };
  }
  const data = entry.data ?? Buffer.alloc(0);
  return {
    method: entry.stored ? 0 : 8,
    compressed: entry.stored ? data : deflateRawSync(data),
    size: data.length,
    crc: crc32(data),
  };
}

export function writeZip(entries: readonly ZipWriterEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const { method, compressed, size, crc } = entryContent(entry);
    const declaredSize = entry.declaredSize ?? size;

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(UTF8_NAME_FLAG, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, compressed);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(UTF8_NAME_FLAG, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);

    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The entries of a zip (as exceljs or LibreOffice write them), in their order, inflated. */
export function readZip(archive: Buffer): { name: string; data: Buffer }[] {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = archive.readUInt16LE(end + 10);
  let offset = archive.readUInt32LE(end + 16);
  const entries: { name: string; data: Buffer }[] = [];
  for (let index = 0; index < count; index++) {
    const method = archive.readUInt16LE(offset + 10);
    const compressedSize = archive.readUInt32LE(offset + 20);
    const nameLength = archive.readUInt16LE(offset + 28);
    const extraLength = archive.readUInt16LE(offset + 30);
    const commentLength = archive.readUInt16LE(offset + 32);
    const localOffset = archive.readUInt32LE(offset + 42);
    const name = archive.toString('utf8', offset + 46, offset + 46 + nameLength);
    const dataStart =
      localOffset + 30 + archive.readUInt16LE(localOffset + 26) + archive.readUInt16LE(localOffset + 28);
    const compressed = archive.subarray(dataStart, dataStart + compressedSize);
    entries.push({ name, data: method === 0 ? Buffer.from(compressed) : inflateRawSync(compressed) });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Rewrites a zip with some entries' content replaced, or added when the zip has no such entry. */
export function replaceEntries(archive: Buffer, replacements: Record<string, Buffer | string>): Buffer {
  const entries = readZip(archive).map((entry) => {
    const replacement = replacements[entry.name];
    return replacement === undefined ? entry : { name: entry.name, data: Buffer.from(replacement) };
  });
  const known = new Set(entries.map((entry) => entry.name));
  for (const [name, replacement] of Object.entries(replacements)) {
    if (!known.has(name)) entries.push({ name, data: Buffer.from(replacement) });
  }
  return writeZip(entries);
}

/**
 * Deflates content handed over a piece at a time, so a gigabyte of it never sits in memory; only
 * the deflated bytes (about a thousandth for repetitive content) are kept.
 */
export async function deflateStreaming(pieces: Iterable<Buffer>, level = 1): Promise<DeflatedContent> {
  let size = 0;
  let crc = 0;
  function* counted(): Generator<Buffer> {
    for (const piece of pieces) {
      size += piece.length;
      crc = crc32(piece, crc);
      yield piece;
    }
  }
  const deflater = createDeflateRaw({ level });
  Readable.from(counted(), { objectMode: false }).pipe(deflater);
  const chunks: Buffer[] = [];
  for await (const chunk of deflater as AsyncIterable<Buffer>) chunks.push(chunk);
  return { bytes: Buffer.concat(chunks), size, crc32: crc };
}

/** `head`, then `filler` repeated to about `totalBytes`, then `tail`. */
export function* repeated(head: string, filler: string, totalBytes: number, tail: string): Generator<Buffer> {
  yield Buffer.from(head);
  const block = Buffer.from(filler.repeat(Math.ceil((1024 * 1024) / filler.length)));
  for (let written = 0; written < totalBytes; written += block.length) yield block;
  yield Buffer.from(tail);
}
