import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text files worth compressing; images (PNG, JPEG, WebP) are compressed already. */
export const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest)$/;
/** Below this a compressed copy saves less than its own headers cost. */
export const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip -9) beside every compressible file under `dir`, so
 * the server sends the smallest copy the browser accepts without compressing anything per request. A copy that would
 * not be smaller is not written. Returns the files compressed.
 */
export async function precompressDir(dir: string) {
  const files = fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => COMPRESSIBLE.test(f) && fs.statSync(f).isFile() && fs.statSync(f).size >= MIN_BYTES);
  await Promise.all(
    files.map(async (file) => {
      const data = fs.readFileSync(file);
      const [br, gzipped] = await Promise.all([
        brotli(data, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        }),
        gz(data, { level: 9 }),
      ]);
      if (br.length < data.length) fs.writeFileSync(`${file}.br`, br);
      if (gzipped.length < data.length) fs.writeFileSync(`${file}.gz`, gzipped);
    }),
  );
  return files;
}
