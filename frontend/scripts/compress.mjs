// Compression shared by the build step (precompress.mjs) and the size report (bundle-size.mjs):
// the same settings the server's precompressed files are made with.
import { constants, brotliCompressSync, gzipSync } from 'node:zlib';

/** Files worth compressing: text formats and fonts without their own compression. */
export const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|ttf|otf|ico|webmanifest|xml)$/;

export function gzip(buf) {
  return gzipSync(buf, { level: 9 });
}

export function brotli(buf) {
  return brotliCompressSync(buf, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: buf.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
}
