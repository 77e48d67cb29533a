/**
 * `npm start`'s prestart: runs `vite build` only when dist/index.html is missing or older than the newest file the
 * build reads (the app's sources, index.html, public/, the Vite config and the plugins it imports, the lock file).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const output = path.join(root, 'dist', 'index.html'); // vite.config.ts: build.outDir 'dist'
const inputs = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'scripts/precompress.ts',
  'scripts/paint-first.ts',
  'tsconfig.json',
  'package-lock.json',
];

/** The latest modification time under `file` (a file or a directory), 0 when it does not exist. */
function newest(file: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs; // a deleted file changes only its directory
  for (const entry of fs.readdirSync(file)) latest = Math.max(latest, newest(path.join(file, entry)));
  return latest;
}

const built = newest(output);
const sources = Math.max(...inputs.map((input) => newest(path.join(root, input))));
if (built > sources) {
  console.log('Build is up to date (dist/ newer than the sources): skipped');
} else {
  console.log(built ? 'Sources changed since the last build: building' : 'No build yet (dist/index.html): building');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build'], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
