// The family portal's build (ortu.html, served at /ortu): a second `vite build` into the same
// dist/, after the staff app's (vite.config.ts), with React aliased to Preact's compatibility
// layer. React DOM alone was ~60 kB gzip of the portal's ~198 kB first download; Preact and
// its compat layer are ~10 kB, and the portal's libraries (Mantine, TanStack Query,
// react-i18next) run on it unchanged. `react-router` is the portal's own small router
// (src/features/portal/ortu/router.tsx: React Router was ~30 kB gzip of the entry). The staff app is on Preact too
// (vite.config.ts) but keeps React Router: it is built, tested and served apart. Its own manifest (.vite/manifest-ortu.json) is read by scripts/bundle-size.mjs.
// docs/portal.md, "What a guardian downloads". The dev server (`npm run dev`) still serves
// ortu.html with React from vite.config.ts: the portal's code is React code either way.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { navCatalogue } from './scripts/nav-catalogue.mjs';
import { bootScreen } from './scripts/boot-screen.mjs';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  // navCatalogue: src/i18n imports `virtual:tatib-nav` (the staff shell's labels; the portal never loads it).
  plugins: [react(), navCatalogue(), bootScreen()],
  resolve: {
    // Exact matches only (a regexp per name), so `react-i18next` and `react-router` stay themselves.
    alias: [
      { find: /^react$/, replacement: 'preact/compat' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
      { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
      // The portal's six routes on a few lines of history routing (features/portal/ortu/router.tsx).
      { find: /^react-router$/, replacement: src('./src/features/portal/ortu/router.tsx') },
      { find: '@', replacement: src('./src') },
    ],
    dedupe: ['preact'],
  },
  base: '/',
  build: {
    outDir: 'dist',
    // The staff app's build is already there (package.json's build runs it first).
    emptyOutDir: false,
    copyPublicDir: false,
    chunkSizeWarningLimit: 1500,
    manifest: '.vite/manifest-ortu.json',
    rollupOptions: { input: { ortu: src('./ortu.html') } },
  },
});
