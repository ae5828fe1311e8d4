// What the console costs before the login form shows (issue 15 benchmark): builds the console with
// Vite into a scratch directory, follows what /login loads — index.html's entry script and CSS
// plus every chunk they import statically, read from the Vite manifest — and sums their gzipped
// size, beside the gzipped size of the whole bundle (every .js and .css) in the same run.
// Target: login at most 200 KB gzipped.
// Usage: npx tsx bench/bundleSize.bench.ts [--keep]   (--keep leaves the build in place and prints its path)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Manifest } from 'vite';

const GOAL_LOGIN_MAX_BYTES = 200 * 1024;

function gzipBytes(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

/** The files a page loads up front for `entryKey`: its own file, its CSS and its static imports, transitively. */
export function upfrontFiles(manifest: Manifest, entryKey: string): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk ${key}`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entryKey);
  return files;
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? listFiles(dir, relative) : [relative];
  });
}

async function main() {
  const outDir = mkdtempSync(join(tmpdir(), 'sitewatch-bundle-'));
  try {
    await build({ logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: false, manifest: true } });
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
    const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry && key.endsWith('index.html'));
    if (!entryKey) throw new Error('no index.html entry in the manifest');

    const login = upfrontFiles(manifest, entryKey);
    // index.html itself is part of what /login downloads.
    const loginGzipBytes = gzipBytes(join(outDir, 'index.html')) + sumGzip(outDir, login);
    const bundle = listFiles(outDir).filter((file) => /\.(js|css)$/.test(file));
    const wholeGzipBytes = gzipBytes(join(outDir, 'index.html')) + sumGzip(outDir, bundle);

    const result = {
      loginGzipBytes,
      wholeGzipBytes,
      ratio: Number((loginGzipBytes / wholeGzipBytes).toFixed(3)),
      goalLoginMaxBytes: GOAL_LOGIN_MAX_BYTES,
    };
    if (process.argv.includes('--verbose')) {
      for (const file of [...login].sort()) console.error(`login: ${file} ${gzipBytes(join(outDir, file))}`);
    }
    console.log(JSON.stringify(result));
  } finally {
    if (process.argv.includes('--keep')) console.error(`build kept in ${outDir}`);
    else rmSync(outDir, { recursive: true, force: true });
  }
}

function sumGzip(dir: string, files: Iterable<string>): number {
  let total = 0;
  for (const file of files) total += gzipBytes(join(dir, file));
  return total;
}

await main();
