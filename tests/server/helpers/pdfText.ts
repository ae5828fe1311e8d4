import { inflateSync } from 'node:zlib';

/**
 * The text a PDF written by PDFKit with one embedded font shows, one entry per text object
 * (each drawn run): page streams are inflated, glyph codes mapped back through the font's
 * ToUnicode map. Enough to read our own reports back in tests, not a general PDF reader.
 */
export function pdfText(pdf: Buffer): string[] {
  const raw = pdf.toString('latin1');
  const streams: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    const bytes = Buffer.from(match[1], 'latin1');
    try {
      streams.push(inflateSync(bytes).toString('latin1'));
    } catch {
      streams.push(match[1]);
    }
  }
  const cmap = streams.find((s) => s.includes('beginbfrange'));
  if (!cmap) throw new Error('No ToUnicode map: is a font embedded?');
  const glyphs = new Map<number, string>();
  for (const range of cmap.matchAll(/<([0-9a-f]+)> <[0-9a-f]+> \[([^\]]*)\]/gi)) {
    const first = Number.parseInt(range[1], 16);
    [...range[2].matchAll(/<([^>]*)>/g)].forEach((entry, offset) => {
      const units = entry[1].split(' ').filter(Boolean);
      glyphs.set(first + offset, String.fromCharCode(...units.map((u) => Number.parseInt(u, 16))));
    });
  }
  const lines: string[] = [];
  for (const content of streams.filter((s) => s.includes(' TJ'))) {
    for (const block of content.matchAll(/BT([\s\S]*?)ET/g)) {
      let text = '';
      for (const hex of block[1].matchAll(/<([0-9a-f]+)>/gi))
        for (let i = 0; i < hex[1].length; i += 4)
          text += glyphs.get(Number.parseInt(hex[1].slice(i, i + 4), 16)) ?? '';
      lines.push(text);
    }
  }
  return lines;
}
