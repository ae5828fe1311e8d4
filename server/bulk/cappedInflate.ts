import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { ZIP_MESSAGES, type ZipEntry, ZipRefused } from './zipDirectory';

/** The message of the error a cancelled read ends with. */
export const USER_CANCELLED = 'USER_CANCELLED';

const SLICE_BYTES = 64 * 1024;

export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Error(USER_CANCELLED);
}

function* slices(data: Buffer): Generator<Buffer> {
  for (let start = 0; start < data.length; start += SLICE_BYTES) {
    yield data.subarray(start, start + SLICE_BYTES);
  }
}

function isOwnError(error: unknown): boolean {
  return error instanceof ZipRefused || (error instanceof Error && error.message === USER_CANCELLED);
}

/**
 * An entry's bytes, inflated a chunk at a time as the caller asks for them (zlib waits while the
 * caller is busy, so memory stays at a chunk or two). The entry may not produce more than the
 * size the central directory declared, which readZipDirectory already held to its limits: a
 * directory that understates a bomb is stopped at its own figure.
 */
export async function* inflateEntry(
  archive: Buffer,
  entry: ZipEntry,
  signal?: AbortSignal,
): AsyncGenerator<Buffer, void, undefined> {
  const data = archive.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  if (entry.method === 'stored') {
    for (const slice of slices(data)) {
      throwIfCancelled(signal);
      yield slice;
    }
    return;
  }

  const source = Readable.from(slices(data), { objectMode: false });
  const inflater = createInflateRaw({ chunkSize: SLICE_BYTES });
  source.on('error', (error) => inflater.destroy(error));
  source.pipe(inflater);
  let produced = 0;
  try {
    for await (const chunk of inflater as AsyncIterable<Buffer>) {
      throwIfCancelled(signal);
      produced += chunk.length;
      if (produced > entry.uncompressedSize) throw new ZipRefused('tooLarge', ZIP_MESSAGES.sizeLie);
      yield chunk;
    }
  } catch (error) {
    if (isOwnError(error)) throw error;
    // zlib's own errors (a corrupt or truncated deflate stream).
    throw new ZipRefused('unreadable', ZIP_MESSAGES.unreadable);
  } finally {
    source.destroy();
    inflater.destroy();
  }
  if (produced !== entry.uncompressedSize) throw new ZipRefused('unreadable', ZIP_MESSAGES.unreadable);
}
