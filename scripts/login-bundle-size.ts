/**
 * Gzipped JavaScript a browser fetches to open /login in the production build: the entry chunk,
 * every chunk it imports statically, and the login page's lazy chunk with its static imports.
 * Reads dist/.vite/manifest.json (vite.config.ts sets build.manifest). Run after `npx vite build`:
 *   npx tsx scripts/login-bundle-size.ts [distDir]
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** The chunk the login route loads lazily: the sign-in page and its own imports (vite.config.ts names it). */
export const LOGIN_CHUNK_NAME = 'signin';
/** The budget set for the sign-in page: 200 kB of gzipped JavaScript. */
export const LOGIN_BUDGET_BYTES = 200_000;

export interface LoginBundleSize {
  files: { file: string; gzip: number }[];
  totalGzip: number;
}

function staticClosure(manifest: Manifest, roots: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    if (!manifest[key]) throw new Error(`${key} is not in the build manifest`);
    seen.add(key);
    manifest[key].imports?.forEach(visit);
  };
  roots.forEach(visit);
  return [...seen];
}

export async function loginBundleSize(distDir: string = 'dist'): Promise<LoginBundleSize> {
  const manifest = JSON.parse(await readFile(path.join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const entry = manifest['index.html']?.isEntry ? 'index.html' : Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entry) throw new Error('The build manifest has no entry chunk');
  const login = Object.keys(manifest).find((key) => manifest[key].name === LOGIN_CHUNK_NAME);
  if (!login) throw new Error(`The build manifest has no chunk named ${LOGIN_CHUNK_NAME}`);
  const files = [...new Set(staticClosure(manifest, [entry, login]).map((key) => manifest[key].file))].filter((file) =>
    file.endsWith('.js'),
  );
  const sized = await Promise.all(files.map(async (file) => ({ file, gzip: gzipSync(await readFile(path.join(distDir, file))).length })));
  sized.sort((a, b) => b.gzip - a.gzip);
  return { files: sized, totalGzip: sized.reduce((sum, f) => sum + f.gzip, 0) };
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { files, totalGzip } = await loginBundleSize(process.argv[2] ?? 'dist');
  for (const { file, gzip } of files) console.log(`${kB(gzip).padStart(10)}  ${file}`);
  console.log(`${kB(totalGzip).padStart(10)}  total gzipped JavaScript for /login (budget ${kB(LOGIN_BUDGET_BYTES)})`);
  if (totalGzip > LOGIN_BUDGET_BYTES) process.exitCode = 1;
}
