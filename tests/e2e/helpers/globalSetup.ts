import { mkdirSync } from 'node:fs';
import { build } from 'vite';
import { buildCanvasHarness } from './canvasHarness';
import { CONSOLE_DIR } from './outputDir';

/** Builds the console (and the canvas harness) once for every browser test file; each file serves it itself. */
export default async function setup() {
  mkdirSync('test-output/screenshots', { recursive: true });
  await build({ logLevel: 'warn', build: { outDir: CONSOLE_DIR, emptyOutDir: true, sourcemap: false } });
  // The floor canvas alone, on a page of its own (tests/e2e/harness), for canvas.test.ts.
  await buildCanvasHarness();
}
