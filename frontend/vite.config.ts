/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { faceAssets } from './scripts/face-assets.mjs';
import { navCatalogue } from './scripts/nav-catalogue.mjs';

// The Go server serves the build at / (server/internal/web); `make dev` runs this dev server
// with the API proxied to the Go server on 127.0.0.1:8080.
const apiTarget = process.env.TATIB_API_TARGET ?? 'http://127.0.0.1:8080';

export default defineConfig({
  // faceAssets: the face engine's models and wasm at /face/models/ and /face/wasm/ (dev and build).
  // navCatalogue: the navigation's labels as `virtual:tatib-nav` (scripts/nav-catalogue.mjs).
  plugins: [react(), faceAssets(), navCatalogue()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
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
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
  },
});
