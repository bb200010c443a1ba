// After `vite build`: writes <file>.gz and <file>.br beside every compressible file of dist/
// (gzip level 9, brotli quality 11), each only when it is smaller than the file itself. The Go
// server (server/internal/web) sends them to browsers that accept them, so no CPU is spent
// compressing per request. Usage: node scripts/precompress.mjs [dist]
import { readdir, readFile, writeFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPRESSIBLE, brotli, gzip } from './compress.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(process.argv[2] ?? path.join(here, '../dist'));

async function* files(dir) {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    // .vite/ holds the build manifest, read by the size report, never served.
    if (e.isDirectory()) {
      if (e.name !== '.vite') yield* files(p);
    } else if (COMPRESSIBLE.test(e.name)) {
      yield p;
    }
  }
}

let raw = 0;
let gz = 0;
let br = 0;
let count = 0;
for await (const file of files(dist)) {
  const buf = await readFile(file);
  for (const [ext, compress] of [['.gz', gzip], ['.br', brotli]]) {
    const out = compress(buf);
    if (out.length < buf.length) {
      await writeFile(file + ext, out);
      if (ext === '.gz') gz += out.length;
      else br += out.length;
    } else {
      // A stale variant from an earlier build must not outlive its file's new content.
      await rm(file + ext, { force: true });
      if (ext === '.gz') gz += buf.length;
      else br += buf.length;
    }
  }
  raw += buf.length;
  count++;
}
const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
console.log(`precompress: ${count} files, ${kb(raw)} raw, ${kb(gz)} gzip, ${kb(br)} brotli`);
