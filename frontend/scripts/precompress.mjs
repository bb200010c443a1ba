// After `vite build`: writes <file>.gz and <file>.br beside every compressible file of dist/
// (gzip level 9, brotli quality 11), each only when it is smaller than the file itself. The Go
// server (server/internal/web) sends them to browsers that accept them, so no CPU is spent
// compressing per request. The files are compressed side by side on libuv's thread pool
// (brotli 11 is seconds of CPU per megabyte; one file after another left a core idle). Usage: node scripts/precompress.mjs [dist]
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPRESSIBLE, brotliAsync, gzipAsync } from './compress.mjs';

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

async function compressOne(file) {
  const buf = await readFile(file);
  await Promise.all(
    [
      ['.gz', gzipAsync],
      ['.br', brotliAsync],
    ].map(async ([ext, compress]) => {
      const out = await compress(buf);
      let size = out.length;
      if (out.length < buf.length) {
        await writeFile(file + ext, out);
      } else {
        // A stale variant from an earlier build must not outlive its file's new content.
        await rm(file + ext, { force: true });
        size = buf.length;
      }
      if (ext === '.gz') gz += size;
      else br += size;
    }),
  );
  raw += buf.length;
  count++;
}

const all = [];
for await (const file of files(dist)) all.push(file);
// The largest first, so the long brotli runs do not end up last on one thread.
const sizes = new Map(await Promise.all(all.map(async (f) => [f, (await stat(f)).size])));
all.sort((a, b) => sizes.get(b) - sizes.get(a));
// A few files at a time: the thread pool (4 threads) does the work; more in flight only holds memory.
let next = 0;
await Promise.all(
  Array.from({ length: 4 }, async () => {
    while (next < all.length) await compressOne(all[next++]);
  }),
);
const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
console.log(`precompress: ${count} files, ${kb(raw)} raw, ${kb(gz)} gzip, ${kb(br)} brotli`);
