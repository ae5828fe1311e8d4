import { crc32, deflateSync } from 'node:zlib';

/**
 * Generated floor blueprints for the demo site (DESIGN.md §6): walls, rooms, a corridor,
 * stairs, a lift core and structural columns, drawn into an RGBA buffer and written as PNG
 * with node:zlib, so no image library is needed.
 */

export type Rgba = readonly [number, number, number, number];

export class Raster {
  readonly pixels: Buffer;

  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgba,
  ) {
    this.pixels = Buffer.alloc(width * height * 4);
    this.fillRect(0, 0, width, height, background);
  }

  /** Fills the rectangle, clipped to the image. */
  fillRect(x: number, y: number, w: number, h: number, color: Rgba): void {
    const x0 = Math.max(0, Math.round(x));
    const y0 = Math.max(0, Math.round(y));
    const x1 = Math.min(this.width, Math.round(x + w));
    const y1 = Math.min(this.height, Math.round(y + h));
    for (let row = y0; row < y1; row++) {
      for (let col = x0; col < x1; col++) this.pixels.set(color, (row * this.width + col) * 4);
    }
  }

  /** A rectangle's outline, `thickness` pixels drawn inwards. */
  strokeRect(x: number, y: number, w: number, h: number, thickness: number, color: Rgba): void {
    this.fillRect(x, y, w, thickness, color);
    this.fillRect(x, y + h - thickness, w, thickness, color);
    this.fillRect(x, y, thickness, h, color);
    this.fillRect(x + w - thickness, y, thickness, h, color);
  }

  /** A straight line of the given thickness (square brush along the segment). */
  line(x0: number, y0: number, x1: number, y1: number, thickness: number, color: Rgba): void {
    const steps = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0), 1);
    const half = thickness / 2;
    for (let i = 0; i <= steps; i++) {
      const x = x0 + ((x1 - x0) * i) / steps;
      const y = y0 + ((y1 - y0) * i) / steps;
      this.fillRect(x - half, y - half, thickness, thickness, color);
    }
  }

  pixel(x: number, y: number): Rgba {
    const at = (y * this.width + x) * 4;
    return [this.pixels[at], this.pixels[at + 1], this.pixels[at + 2], this.pixels[at + 3]];
  }
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** An 8-bit RGBA PNG (colour type 6), every scanline with filter 0. */
export function encodePng(raster: Raster): Buffer {
  const { width, height, pixels } = raster;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const stride = width * 4;
  const scanlines = Buffer.alloc((stride + 1) * height);
  for (let row = 0; row < height; row++) {
    pixels.copy(scanlines, row * (stride + 1) + 1, row * stride, (row + 1) * stride);
  }
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(scanlines, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A small deterministic generator, so a demo blueprint is the same image every time. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
}

export const DEMO_BLUEPRINT_SIZE = { width: 1600, height: 1000 } as const;

const PAPER: Rgba = [250, 251, 253, 255];
const WALL: Rgba = [38, 50, 64, 255];
const PARTITION: Rgba = [84, 98, 116, 255];
const CORRIDOR: Rgba = [226, 231, 238, 255];
const STAIR: Rgba = [120, 132, 148, 255];
const COLUMN: Rgba = [60, 70, 84, 255];
const ROOM_TINTS: Rgba[] = [
  [236, 244, 252, 255],
  [240, 248, 238, 255],
  [252, 245, 234, 255],
  [244, 240, 250, 255],
  [246, 246, 246, 255],
];

/** Stairs: a box with treads across it. */
function stairs(r: Raster, x: number, y: number, w: number, h: number): void {
  r.fillRect(x, y, w, h, PAPER);
  r.strokeRect(x, y, w, h, 4, STAIR);
  r.line(x + w / 2, y + 8, x + w / 2, y + h - 8, 3, STAIR);
  for (let tread = y + 14; tread < y + h - 8; tread += 14) r.line(x + 6, tread, x + w - 6, tread, 2, STAIR);
}

/** A lift shaft: a box crossed corner to corner. */
function lift(r: Raster, x: number, y: number, size: number): void {
  r.strokeRect(x, y, size, size, 4, STAIR);
  r.line(x + 4, y + 4, x + size - 4, y + size - 4, 2, STAIR);
  r.line(x + size - 4, y + 4, x + 4, y + size - 4, 2, STAIR);
}

/** A row of rooms between x0 and x1, with a door gap towards the corridor. */
function roomRow(
  r: Raster,
  next: () => number,
  x0: number,
  x1: number,
  top: number,
  bottom: number,
  doorY: number,
) {
  let x = x0;
  while (x < x1 - 120) {
    const w = Math.min(x1 - x, 140 + Math.floor(next() * 160));
    r.fillRect(x + 3, top + 3, w - 6, bottom - top - 6, ROOM_TINTS[Math.floor(next() * ROOM_TINTS.length)]);
    if (x + w < x1) r.fillRect(x + w - 3, top, 6, bottom - top, PARTITION);
    r.fillRect(x + w / 2 - 22, doorY - 5, 44, 10, PAPER);
    x += w;
  }
}

/**
 * A plan of one storey: outer walls, a corridor along the middle (and, on upper levels, a
 * cross corridor), rooms either side with doors, two stair cores, a lift and a column grid.
 */
export function drawBlueprint(variant: number, size = DEMO_BLUEPRINT_SIZE): Raster {
  const { width, height } = size;
  const next = random(0x9e3779b9 ^ (variant * 7919));
  const r = new Raster(width, height, PAPER);
  const m = Math.round(Math.min(width, height) * 0.06);
  const corridorTop = Math.round(height * 0.44);
  const corridorBottom = Math.round(height * 0.56);
  const coreWidth = Math.round(width * 0.09);

  r.fillRect(m, corridorTop, width - 2 * m, corridorBottom - corridorTop, CORRIDOR);
  roomRow(r, next, m + coreWidth, width - m - coreWidth, m, corridorTop, corridorTop);
  roomRow(r, next, m + coreWidth, width - m - coreWidth, corridorBottom, height - m, corridorBottom);
  r.fillRect(m, corridorTop - 3, width - 2 * m, 6, PARTITION);
  r.fillRect(m, corridorBottom - 3, width - 2 * m, 6, PARTITION);
  // Door gaps were cut before the corridor walls were drawn; cut them again in the walls.
  for (let x = m + coreWidth + 60; x < width - m - coreWidth - 60; x += 180 + Math.floor(next() * 80)) {
    r.fillRect(x, corridorTop - 4, 40, 8, CORRIDOR);
    r.fillRect(x + 70, corridorBottom - 4, 40, 8, CORRIDOR);
  }
  if (variant % 3 !== 0) {
    const crossX = Math.round(width * (0.4 + next() * 0.2));
    r.fillRect(crossX - 40, m, 80, height - 2 * m, CORRIDOR);
    r.fillRect(crossX - 43, m, 6, height - 2 * m, PARTITION);
    r.fillRect(crossX + 37, m, 6, height - 2 * m, PARTITION);
    r.fillRect(crossX - 43, corridorTop + 3, 86, corridorBottom - corridorTop - 6, CORRIDOR);
  }

  // Cores: stairs at both ends, a lift beside the west stairs.
  r.fillRect(m + coreWidth - 3, m, 6, height - 2 * m, WALL);
  r.fillRect(width - m - coreWidth - 3, m, 6, height - 2 * m, WALL);
  r.fillRect(m + coreWidth - 4, corridorTop + 8, 8, corridorBottom - corridorTop - 16, CORRIDOR);
  r.fillRect(width - m - coreWidth - 4, corridorTop + 8, 8, corridorBottom - corridorTop - 16, CORRIDOR);
  stairs(r, m + 16, m + 20, coreWidth - 36, corridorTop - m - 60);
  stairs(
    r,
    width - m - coreWidth + 20,
    corridorBottom + 40,
    coreWidth - 36,
    height - m - corridorBottom - 60,
  );
  lift(r, m + 20, corridorBottom + 30, Math.min(coreWidth - 44, 90));

  for (let x = m + coreWidth + 200; x < width - m - coreWidth; x += 200) {
    for (const y of [m + 60, height - m - 72]) r.fillRect(x - 6, y, 12, 12, COLUMN);
  }
  r.strokeRect(m, m, width - 2 * m, height - 2 * m, 12, WALL);
  // The main entrance on the south wall.
  r.fillRect(width / 2 - 50, height - m - 12, 100, 12, PAPER);
  return r;
}

/** Demo blueprint files are named after their building and level, so they can be regenerated. */
export function demoBlueprintName(building: number, level: number): string {
  return `demo-b${building}-l${level}.png`;
}

/** The PNG behind a demo blueprint name, or null when the name is not one. */
export function demoBlueprintPng(fileName: string): Buffer | null {
  const match = /^demo-b(\d{1,2})-l(\d{1,2})\.png$/.exec(fileName);
  if (!match) return null;
  return encodePng(drawBlueprint(Number(match[1]) * 10 + Number(match[2])));
}
