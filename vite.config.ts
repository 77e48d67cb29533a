import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
// With its extension: Vite's coming native config loader (Node's own) resolves nothing else.
import { precompressDir } from './scripts/precompress.ts';
import { paintFirst } from './scripts/paint-first.ts';

// The Fastify server (npm run dev:server) listens on 8080 and serves /api; vite proxies to it in dev.
const apiTarget = process.env.VITE_PROXY_TARGET ?? 'http://127.0.0.1:8080';

/**
 * node-polyglot (react-admin's translations) requires the `object.entries` polyfill, which pulls
 * ~14 kB of get-intrinsic & co. into the sign-in page's download; every browser we support has it.
 */
const nativeObjectEntries: Plugin = {
  name: 'native-object-entries',
  apply: 'build',
  enforce: 'pre',
  resolveId: (id) => (id === 'object.entries' ? '\0native-object-entries' : null),
  load: (id) => (id === '\0native-object-entries' ? 'module.exports = Object.entries;' : null),
};

/** Brotli and gzip copies beside every built text file; the server sends them by Accept-Encoding (server/plugins/spa.ts). */
const precompress = (): Plugin => {
  let outDir = 'dist';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
};

/** The HTML's name and spinner are painted before the app's code is fetched or evaluated (scripts/paint-first.ts). */
const paintFirstPlugin: Plugin = {
  name: 'paint-first',
  apply: 'build',
  enforce: 'post',
  generateBundle: {
    order: 'post',
    handler(_options, bundle) {
      const page = bundle['index.html'];
      if (page?.type !== 'asset') return;
      const rewritten = paintFirst(String(page.source));
      if (!rewritten) return this.error('paint-first: no entry script in index.html');
      page.source = rewritten.html;
      this.emitFile({ type: 'asset', fileName: rewritten.start.fileName, source: rewritten.start.code });
    },
  },
};

export default defineConfig({
  plugins: [react(), nativeObjectEntries, paintFirstPlugin, precompress()],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      // The embedded Pusher-protocol WebSocket endpoint (real-time scan events).
      // (a pattern, so the SPA's own /app-settings route is not proxied)
      '^/app/[A-Za-z0-9_-]+(\\?|$)': { target: apiTarget, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/login-bundle-size.ts reads the manifest to follow the login route's imports.
    manifest: true,
    rolldownOptions: {
      output: {
        // Everything the entry imports statically comes in the entry's chunk (Rolldown's `$initial` tag): the sign-in
        // page needs all of it anyway, and it arrives as 2 requests instead of 31. Each request costs the page's main
        // thread a few ms to start (blocking time), and one larger file compresses better (about 193 kB gzipped rather
        // than 204). Lazy chunks import from it as from any other.
        //
        // The sign-in page comes with its own imports as one chunk, so the groups below cannot take any of them.
        //
        // The resources' descriptions come as one chunk: the signed-in layout reads them all (menu, routes, access), and
        // the data provider reads one with its first call, on any page.
        //
        // The signed-in layout comes as one chunk with everything it imports that the chunks above do not hold: MUI's
        // tooltip, menu, modal, list and text field parts, react-admin's layout hooks, the header and the menu. Every
        // signed-in screen loads all of it, in one request instead of about 35: with six connections per server and a
        // phone's round trips, those requests were most of the wait before a screen's own code arrived. The public
        // pages (invoice, customer portal, approval) share most of those parts and load the chunk too.
        codeSplitting: {
          groups: [
            { name: 'initial', tags: ['$initial'] },
            { name: 'signin', test: /src[\\/]custom[\\/]login[\\/]LoginPage\.tsx$/ },
            { name: 'definitions', test: /src[\\/]resources[\\/]([^\\/]+[\\/]definition|definitions)\.tsx?$/ },
            // The few shared parts the invoice takes from the layout's set (text, stacks, dividers, the data provider and the
            // language hooks) come as a small chunk of their own: the invoice, a public page, then loads no layout chunk
            // (46 kB brotli) before its first paint. On a phone it scored 91 and 91 instead of 89 and 89 (interleaved).
            {
              name: 'page-parts',
              test: /@mui[\\/]material[\\/](esm[\\/])?(Typography|Stack|Divider)[\\/]|ra-core[\\/]dist[\\/](dataProvider[\\/]useDataProvider|i18n[\\/]useLocaleState)\.js$/,
            },
            // The date range field goes with it: the dashboard and the scan and quote lists' filters all show it.
            { name: 'layout', test: /src[\\/](custom[\\/]layout[\\/]AppLayout|components[\\/]DateRangeField)\.tsx$/ },
            // The words the catalogues share with the server's documents (the invoice's, the exports'): one file, not two.
            { name: 'labels', test: /src[\\/]domain[\\/](invoice|report)-labels\.ts$/ },
          ],
        },
      },
    },
    // The entry's chunk (React, MUI, react-admin and the shell's start) is about 590 kB before compression, 163 kB as
    // brotli; the warning's default (500 kB) was set for chunks that could be split further.
    chunkSizeWarningLimit: 650,
  },
});
