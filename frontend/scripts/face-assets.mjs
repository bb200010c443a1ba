// The face engine's models and wasm files, served by Tatib itself (no CDN; issue 16): the build
// copies them from node_modules to dist/face/models/ and dist/face/wasm/, and the dev server
// answers the same URLs from node_modules. Only the models the face pipeline uses are copied
// (human ships ~20; these six are ~14 MB of the ~50). They are fetched by the face pages only,
// so neither the sign-in page nor the shell downloads them (scripts/bundle-size.mjs reads the
// manifest, which these files are not part of).
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const modules = path.join(here, '../node_modules');

/** human's models the engine loads (engine/index.ts's config): each as <name>.json + <name>.bin. */
export const FACE_MODELS = ['blazeface', 'facemesh', 'iris', 'faceres', 'antispoof', 'liveness'];

/** tfjs's wasm binaries: plain, SIMD and threaded SIMD (the backend picks what the browser has). */
export const FACE_WASM = ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'];

/** URL path under the site root → file in node_modules. */
export function faceAssetFiles() {
  const files = new Map();
  for (const m of FACE_MODELS) {
    for (const ext of ['.json', '.bin']) {
      files.set(`face/models/${m}${ext}`, path.join(modules, '@vladmandic/human/models', m + ext));
    }
  }
  for (const w of FACE_WASM) files.set(`face/wasm/${w}`, path.join(modules, '@tensorflow/tfjs-backend-wasm/dist', w));
  return files;
}

const TYPES = { '.json': 'application/json', '.bin': 'application/octet-stream', '.wasm': 'application/wasm' };

/** The Vite plugin: copies on build, serves on dev and preview. */
export function faceAssets() {
  const files = faceAssetFiles();
  let outDir = 'dist';
  const serve = (middlewares) =>
    middlewares.use(async (req, res, next) => {
      const url = (req.url ?? '').split('?')[0];
      const file = files.get(url.replace(/^\//, ''));
      if (!file) return next();
      try {
        const body = await readFile(file);
        res.setHeader('Content-Type', TYPES[path.extname(file)] ?? 'application/octet-stream');
        res.setHeader('Content-Length', String(body.length));
        res.setHeader('Cache-Control', 'no-cache');
        res.end(req.method === 'HEAD' ? undefined : body);
      } catch (e) {
        next(e);
      }
    });
  return {
    name: 'tatib-face-assets',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      serve(server.middlewares);
    },
    buildStart() {
      for (const file of files.values()) {
        if (!existsSync(file)) this.error(`face assets: ${file} is missing (npm ci in frontend/)`);
      }
    },
    async writeBundle() {
      for (const [rel, file] of files) {
        const dest = path.join(outDir, rel);
        await mkdir(path.dirname(dest), { recursive: true });
        await copyFile(file, dest);
      }
    },
  };
}
