/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { faceAssets } from './scripts/face-assets.mjs';
import { navCatalogue } from './scripts/nav-catalogue.mjs';
import { bootScreen } from './scripts/boot-screen.mjs';
import { EARLY_ENTRY, earlyPreload } from './scripts/early-preload.mjs';

/** The family portal's page (ortu.html) for /ortu and /ortu/* on the dev server (server/internal/web does it in production). */
function portalPage(): Plugin {
  return {
    name: 'tatib-portal-page',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const p = req.url?.split('?')[0] ?? '';
        if ((p === '/ortu' || (p.startsWith('/ortu/') && !p.slice(6).includes('.'))) && req.headers.accept?.includes('text/html')) {
          req.url = '/ortu.html' + (req.url!.slice(p.length) || '');
        }
        next();
      });
    },
  };
}

// The staff app runs on Preact's compatibility layer, as the family portal does
// (vite.portal.config.ts): React DOM was 60 of the first download's 195 kB gzip, and a
// homeroom teacher's phone on slow 4G waited for it. The code is React code (types, hooks,
// react-router, Mantine, TanStack Query unchanged); Vitest's unit tests render it with React
// (react-dom/server), the browser tests run the build as it ships. docs/decisions.md.
// Exact matches only (a regexp per name), so `react-i18next` and `react-router` stay themselves.
const PREACT = [
  { find: /^react$/, replacement: 'preact/compat' },
  // Preact's, with a Suspense boundary inside every portal (src/preact-dom.ts).
  { find: /^react-dom$/, replacement: fileURLToPath(new URL('./src/preact-dom.ts', import.meta.url)) },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
];

// The Go server serves the build at / (server/internal/web); `make dev` runs this dev server
// with the API proxied to the Go server on 127.0.0.1:8080.
const apiTarget = process.env.TATIB_API_TARGET ?? 'http://127.0.0.1:8080';

export default defineConfig({
  // faceAssets: the face engine's models and wasm at /face/models/ and /face/wasm/ (dev and build).
  // navCatalogue: the navigation's labels as `virtual:tatib-nav` (scripts/nav-catalogue.mjs).
  // bootScreen: the loading screen's styles inlined into both HTML pages (scripts/boot-screen.mjs).
  // earlyPreload: the staff app's first script and what it preloads, into index.html (scripts/early-preload.mjs).
  // portalPage: the dev server answers /ortu and /ortu/* with ortu.html, as the Go server does.
  plugins: [react(), faceAssets(), navCatalogue(), portalPage(), bootScreen(), earlyPreload()],
  resolve: {
    alias: [...(process.env.VITEST ? [] : PREACT), { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) }],
    dedupe: ['preact'],
  },
  // Root-relative (not absolute) asset URLs: nested client routes like /users/5 still load
  // /assets/..., and the same build works under the wails:// origin of the desktop app.
  base: '/',
  server: {
    port: 5173,
    proxy: {
      // The server accepts a cookie WebSocket only from its own origin; the dev page's origin
      // (localhost:5173) is the proxy's, so the proxy speaks for it.
      '/api': {
        target: apiTarget,
        changeOrigin: true,
        ws: true,
        configure: (proxy) => proxy.on('proxyReqWs', (req) => req.setHeader('origin', apiTarget)),
      },
      '/healthz': { target: apiTarget, changeOrigin: true },
      '/readyz': { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // scripts/bundle-size.mjs reads it to tell what each first screen downloads; the
    // Makefile leaves it out of the server's and the desktop app's copies.
    manifest: true,
    // The staff app's page; the family portal's (ortu.html, served at /ortu) is built after
    // this one into the same dist/, on Preact, by vite.portal.config.ts.
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        // The staff app's first script (src/early.ts): an entry of its own, so that it runs
        // before the app's code has downloaded; earlyPreload puts it into index.html.
        early: EARLY_ENTRY,
      },
    },
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
  },
});
