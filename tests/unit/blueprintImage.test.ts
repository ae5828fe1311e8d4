import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  DEMO_BLUEPRINT_SIZE,
  demoBlueprintName,
  demoBlueprintPng,
  drawBlueprint,
  encodePng,
  PNG_SIGNATURE,
  Raster,
} from '../../server/db/blueprintImage';
import { sniffImage } from '../../server/floors/imageSniff';

/** The chunks of a PNG, CRCs left to the decoder this test does not have. */
function chunks(png: Buffer): { type: string; data: Buffer }[] {
  const out = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    out.push({ type: png.toString('ascii', at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return out;
}

describe('encodePng', () => {
  it('writes a PNG whose pixels decode back', () => {
    const raster = new Raster(3, 2, [255, 255, 255, 255]);
    raster.fillRect(1, 0, 1, 2, [10, 20, 30, 255]);
    const png = encodePng(raster);
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    const parts = chunks(png);
    expect(parts.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect([
      parts[0].data.readUInt32BE(0),
      parts[0].data.readUInt32BE(4),
      parts[0].data[8],
      parts[0].data[9],
    ]).toEqual([3, 2, 8, 6]);
    const rows = inflateSync(parts[1].data);
    expect(rows.length).toBe((3 * 4 + 1) * 2);
    expect([...rows.subarray(0, 9)]).toEqual([0, 255, 255, 255, 255, 10, 20, 30, 255]);
    expect(sniffImage(png)).toEqual({ mime: 'image/png', extension: 'png', width: 3, height: 2 });
  });
});

describe('demo blueprints', () => {
  it('draws walls on paper at the demo size, the same every time', () => {
    const raster = drawBlueprint(10);
    expect([raster.width, raster.height]).toEqual([1600, 1000]);
    const margin = Math.round(1000 * 0.06);
    expect(raster.pixel(margin + 2, 300)).toEqual([38, 50, 64, 255]); // west outer wall
    expect(raster.pixel(5, 5)).toEqual([250, 251, 253, 255]); // paper outside the walls
    expect(drawBlueprint(10).pixels.equals(raster.pixels)).toBe(true);
    expect(drawBlueprint(11).pixels.equals(raster.pixels)).toBe(false);
  });

  it('regenerates a PNG from a demo file name only', () => {
    const png = demoBlueprintPng(demoBlueprintName(2, 1));
    expect(png && sniffImage(png)).toEqual({ mime: 'image/png', extension: 'png', ...DEMO_BLUEPRINT_SIZE });
    expect(demoBlueprintPng('3f1c-upload.png')).toBeNull();
    expect(demoBlueprintPng('../demo-b1-l1.png')).toBeNull();
  });

  it('reads JPEG sizes and refuses other bytes', () => {
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xf4, 0x02, 0x80, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ]);
    expect(sniffImage(jpeg)).toEqual({ mime: 'image/jpeg', extension: 'jpg', width: 640, height: 500 });
    expect(sniffImage(Buffer.from('GIF89a........'))).toBeNull();
    expect(sniffImage(PNG_SIGNATURE)).toBeNull();
  });
});
