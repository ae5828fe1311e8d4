import { createReadStream, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { E2E_OUTPUT_DIR } from './outputDir';

export const CANVAS_HARNESS_DIR = resolve(E2E_OUTPUT_DIR, 'canvas-harness');
const HARNESS_SOURCE = resolve('tests/e2e/harness');

/**
 * Builds tests/e2e/harness (a page with only the floor canvas) into test-output/canvas-harness;
 * another harness page of that folder builds into a folder of its own.
 */
export async function buildCanvasHarness(page = 'canvas.html', outDir = CANVAS_HARNESS_DIR): Promise<void> {
  await build({
    root: HARNESS_SOURCE,
    configFile: false,
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: false,
      chunkSizeWarningLimit: 4000,
      rolldownOptions: { input: join(HARNESS_SOURCE, page) },
    },
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.eot': 'application/vnd.ms-fontobject',
};

export interface StaticServer {
  /** The harness page's address. */
  url: string;
  close(): Promise<void>;
}

/** A tiny static file server for the built harness on a free local port. */
export async function serveCanvasHarness(
  dir = CANVAS_HARNESS_DIR,
  page = 'canvas.html',
): Promise<StaticServer> {
  if (!existsSync(join(dir, page))) throw new Error(`No harness in ${dir}: run buildCanvasHarness()`);
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    const file = join(dir, path);
    if (!file.startsWith(dir) || !existsSync(file) || path.endsWith('/')) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/${page}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

export type Rgb = [number, number, number];

/** The colours of a screenshot (PNG) at page points, decoded by the browser itself. */
export function pngColoursAt(
  page: Page,
  png: Buffer,
  at: readonly { x: number; y: number }[],
): Promise<Rgb[]> {
  return page.evaluate(
    async ({ base64, at }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const g = canvas.getContext('2d')!;
      g.drawImage(bitmap, 0, 0);
      return at.map(({ x, y }) => {
        const d = g.getImageData(Math.round(x), Math.round(y), 1, 1).data;
        return [d[0], d[1], d[2]] as Rgb;
      });
    },
    { base64: png.toString('base64'), at: [...at] },
  );
}
