/** What a blueprint upload really is, read from its bytes (spec §5: PNG, JPEG or JPG only). */
export interface SniffedImage {
  mime: 'image/png' | 'image/jpeg';
  extension: 'png' | 'jpg';
  width: number;
  height: number;
}

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A PNG's or JPEG's type and size from its headers; null for anything else or a broken header. */
export function sniffImage(bytes: Buffer): SniffedImage | null {
  if (PNG_MAGIC.every((byte, i) => bytes[i] === byte)) return pngSize(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpegSize(bytes);
  return null;
}

function pngSize(bytes: Buffer): SniffedImage | null {
  // The first chunk must be IHDR: length 13, then width and height as big-endian words.
  if (bytes.length < 33 || bytes.toString('ascii', 12, 16) !== 'IHDR') return null;
  return sized('image/png', 'png', bytes.readUInt32BE(16), bytes.readUInt32BE(20));
}

/** Walks the JPEG markers to the first start-of-frame (SOF0–SOF15 but DHT, JPG and DAC). */
function jpegSize(bytes: Buffer): SniffedImage | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2) return null;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return sized('image/jpeg', 'jpg', bytes.readUInt16BE(at + 7), bytes.readUInt16BE(at + 5));
    }
    if (marker === 0xda || marker === 0xd9) return null; // image data before any frame header
    at += 2 + length;
  }
  return null;
}

function sized(
  mime: SniffedImage['mime'],
  extension: SniffedImage['extension'],
  width: number,
  height: number,
) {
  if (width < 1 || height < 1 || width > 100_000 || height > 100_000) return null;
  return { mime, extension, width, height };
}
