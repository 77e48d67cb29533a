import { execSync } from 'node:child_process';
import { LOGIN_BUDGET_KB, measureLoginRoute } from './login-bundle';

/** `npm run bench`: builds the app and prints the figures the issues set targets for. */
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

execSync('npx vite build --logLevel warn', { stdio: 'inherit' });

const login = await measureLoginRoute('dist');
console.log('\nJavaScript a browser fetches to show /login (gzip -9):');
for (const f of login.files.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${kb(f.gzip).padStart(10)}  ${f.file}`);
const ok = login.totalGzip <= LOGIN_BUDGET_KB * 1024;
console.log(`  ${kb(login.totalGzip).padStart(10)}  total  (target <= ${LOGIN_BUDGET_KB} kB: ${ok ? 'met' : 'NOT MET'})`);
process.exitCode = ok ? 0 : 1;
