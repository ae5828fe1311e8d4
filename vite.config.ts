import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { blueprintCssPlugin } from './scripts/blueprintCss.ts';

const apiTarget = process.env.VITE_API_PROXY ?? 'http://localhost:3000';

export default defineConfig({
  // Blueprint's stylesheet in two parts: what the signed-out pages draw, and the rest (scripts/blueprintCss.ts).
  plugins: [react(), blueprintCssPlugin()],
  // Sentry's documented tree-shaking flag: its debug logger is never on in a build, so leave it out.
  define: { __SENTRY_DEBUG__: 'false' },
  // The manifest lets bench/bundleSize.bench.ts follow what /login loads (index.html's entry and its static imports).
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 2000, manifest: true },
  server: { proxy: { '/api': apiTarget, '/bulk': apiTarget } },
});
