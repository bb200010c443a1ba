// Compression shared by the build step (precompress.mjs) and the size report (bundle-size.mjs):
// the same settings the server's precompressed files are made with.
import { promisify } from 'node:util';
import { brotliCompress, constants, brotliCompressSync, gzip as gzipCb, gzipSync } from 'node:zlib';

/** Files worth compressing: text formats and fonts without their own compression. */
export const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|ttf|otf|ico|webmanifest|xml)$/;

const GZIP = { level: 9 };
const brotliOptions = (buf) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
    [constants.BROTLI_PARAM_SIZE_HINT]: buf.length,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  },
});

export function gzip(buf) {
  return gzipSync(buf, GZIP);
}

export function brotli(buf) {
  return brotliCompressSync(buf, brotliOptions(buf));
}

const gzipP = promisify(gzipCb);
const brotliP = promisify(brotliCompress);

/** gzip on libuv's thread pool: the build compresses files side by side on every core. */
export const gzipAsync = (buf) => gzipP(buf, GZIP);

/** brotli on libuv's thread pool. */
export const brotliAsync = (buf) => brotliP(buf, brotliOptions(buf));
