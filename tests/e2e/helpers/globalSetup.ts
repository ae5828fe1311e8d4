import { mkdirSync } from 'node:fs';
import { build } from 'vite';

export const CONSOLE_DIR = 'test-output/console';

/** Builds the console once for every browser test file; each file serves it from its own server. */
export default async function setup() {
  mkdirSync('test-output/screenshots', { recursive: true });
  await build({ logLevel: 'warn', build: { outDir: CONSOLE_DIR, emptyOutDir: true, sourcemap: false } });
}
