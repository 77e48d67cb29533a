import { execSync } from 'node:child_process';
import { LOGIN_BUDGET_KB, measureLoginRoute } from './login-bundle';
import { benchPricing, PRICING_P95_TARGET_MS } from './pricing';
import { benchRealtime } from './realtime';
import { benchScans } from './scans';

/**
 * `npm run bench`: builds the app and prints the figures the issues set targets for: the login route's JavaScript,
 * the scan list at 1,000,000 scans (BENCH_ROWS=… for a quicker, smaller try) and device scan -> browser latency with
 * 500 open connections, and the pricing engine on a 40-panel quote. Exits non-zero when any target is not met.
 */
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

execSync('npx vite build --logLevel warn', { stdio: 'inherit' });

const login = await measureLoginRoute('dist');
console.log('\nJavaScript a browser fetches to show /login (gzip -9):');
for (const f of login.files.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${kb(f.gzip).padStart(10)}  ${f.file}`);
const loginMet = login.totalGzip <= LOGIN_BUDGET_KB * 1024;
console.log(`  ${kb(login.totalGzip).padStart(10)}  total  (target <= ${LOGIN_BUDGET_KB} kB: ${loginMet ? 'met' : 'NOT MET'})`);

console.log('\nPricing engine (issue 10, Performance):');
const pricing = benchPricing();

console.log('\nScan list (issue 4, Scale):');
const scans = await benchScans();

console.log('\nDevice scan -> browser event (issue 4, Scale):');
const realtime = await benchRealtime();

const results: [string, boolean][] = [
  ['login route JavaScript', loginMet],
  [`pricing: a 40-panel quote p95 < ${PRICING_P95_TARGET_MS} ms`, pricing.met],
  ...scans.checks.map((c): [string, boolean] => [`scans: ${c.name}`, c.met]),
  ...realtime.phases.map((p): [string, boolean] => [`realtime (${p.via}): p95 < 100 ms, all delivered, none outside scope`, p.met]),
];
const missed = results.filter(([, met]) => !met);
console.log(
  `\nbench: ${results.length - missed.length} of ${results.length} targets met${missed.length ? `; NOT MET: ${missed.map(([n]) => n).join('; ')}` : ''}`,
);
// Exit explicitly: open handles of the scratch servers must not keep the process alive or mask the code.
process.exit(missed.length ? 1 : 0);
