/**
 * `npm run test:cluster`: issue 12's acceptance on a real cluster (scripts/cluster.ts: Debian PostgreSQL, s3rver, two
 * instances, HAProxy). Checks, in order: the two instances started together migrated once; a scan ingested through A
 * reaches a pusher-js client connected to B; a file uploaded through A and an export made on A are served by B; then
 * CLUSTER_KILL_CYCLES (default 10; the issue's figure is 100) `kill -9` / restart cycles of an instance during
 * concurrent writes through the load balancer, after which every write acknowledged with a 2xx is in the database.
 * Exits 1 on the first failed check.
 */
import pg from 'pg';
import Pusher from 'pusher-js';
import { startCluster, type Cluster } from './cluster';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let failures = 0;
function check(ok: boolean, what: string) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}

async function json(url: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  if (init.body && typeof init.body === 'string') headers.set('content-type', 'application/json');
  const res = await fetch(url, { ...init, headers });
  const text = await res.text();
  // Each check reads the members it needs: `data` with a token, an id, a url.
  const body = (text ? JSON.parse(text) : {}) as { data: { token: string; id: number; url: string; key: string } };
  return { status: res.status, body };
}

async function main(cluster: Cluster) {
  const [a, b] = cluster.instances;
  const db = new pg.Client({ connectionString: cluster.databaseUrl });
  await db.connect();
  try {
    // 5. Migrated once.
    const applied = cluster.instances.map((i) => i.lines.filter((l) => l.startsWith('migration applied')).length);
    const dupes = await db.query('select version from schema_migrations group by version having count(*) > 1');
    check(
      applied.filter((n) => n > 0).length === 1 && dupes.rowCount === 0,
      `two instances started together migrated once (${applied.join(' / ')} files applied)`,
    );

    const login = await json(`${cluster.url}/api/user/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ email: 'admin@demo.test', password: 'demo-password-1' }),
    });
    const token = login.body.data.token;
    // A device of the demo Agent user's agent, and that user's API key (a device acts only for its key user's agents).
    const { user, device } = (
      await db.query<{ user: string; device: string }>(`select u.id as user, d.id as device from users u
        join user_agents ua on ua.user_id = u.id join devices d on d.agent_id = ua.agent_id
        where u.email = 'agent@demo.test' order by d.id limit 1`)
    ).rows[0];
    const key = (await json(`${cluster.url}/api/user/users/${user}/apikey`, { token })).body.data.token;

    // 1. Ingested through A, live on a pusher-js client connected to B.
    const config = (await json(`${b.url}/api/broadcasting/config`)).body.data;
    const pusher = new Pusher(config.key, {
      wsHost: '127.0.0.1',
      wsPort: b.port,
      forceTLS: false,
      enabledTransports: ['ws'],
      disableStats: true,
      cluster: '',
      channelAuthorization: {
        endpoint: `${cluster.url}/api/broadcasting/auth`,
        transport: 'ajax',
        headers: { Authorization: `Bearer ${token}` },
      },
    });
    const channel = pusher.subscribe('private-scan');
    await new Promise<void>((resolve, reject) => {
      channel.bind('pusher:subscription_succeeded', () => resolve());
      channel.bind('pusher:subscription_error', () => reject(new Error('subscription refused')));
    });
    const plate = `CL${Date.now() % 100000}`;
    const heard = new Promise<{ licensePlate: string }>((resolve) => channel.bind('created', resolve));
    const started = Date.now();
    const ingest = await json(`${a.url}/api/scan/ingest/scans`, {
      method: 'POST',
      token: key,
      body: JSON.stringify({ scan_id: `cluster-${Date.now()}`, device_id: Number(device), type: 'arch', licensePlate: plate }),
    });
    const event = await Promise.race([heard, sleep(10_000).then(() => null)]);
    check(
      ingest.status === 201 && event?.licensePlate === plate,
      `a scan ingested through A reached pusher-js on B (${Date.now() - started} ms; ingest ${ingest.status}${ingest.status === 201 ? '' : ` ${JSON.stringify(ingest.body).slice(0, 200)}`})`,
    );
    pusher.disconnect();

    // 2. Uploaded through A, served by B; an export made on A downloads through B.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'dot.png');
    const up = await fetch(`${a.url}/api/user/file/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
    const url = ((await up.json()) as { data: { url: string } }).data.url;
    const served = await fetch(`${b.url}${url}`);
    const bytes = Buffer.from(await served.arrayBuffer());
    check(up.status === 201 && served.status === 200 && bytes.length > 0, `a file uploaded through A is served by B (${url})`);
    const exp = await json(`${a.url}/api/scan/scans/export-scan-report`, { token });
    const download = await fetch(`${b.url}${exp.body.data.url}`);
    const csv = await download.text();
    check(
      download.status === 200 && csv.includes(plate),
      `the scan export made on A downloads through B (${exp.status} then ${download.status}, ${csv.length} bytes)`,
    );

    // 4. kill -9 / restart cycles during concurrent writes through the load balancer.
    const cycles = Number(process.env.CLUSTER_KILL_CYCLES ?? 10);
    const acknowledged: number[] = [];
    let refused = 0;
    let stop = false;
    const writer = async (w: number) => {
      for (let n = 0; !stop; n++) {
        try {
          const r = await json(`${cluster.url}/api/agent/locations`, {
            method: 'POST',
            token,
            body: JSON.stringify({ name: `kill-${w}-${n}`, state: 'VIC' }),
          });
          if (r.status >= 200 && r.status < 300) acknowledged.push(Number(r.body.data.id));
          else refused++;
        } catch {
          refused++;
        }
      }
    };
    const writers = Array.from({ length: 4 }, (_, w) => writer(w));
    let restarts = 0;
    for (let c = 0; c < cycles; c++) {
      const i = c % 2;
      await sleep(300);
      cluster.instances[i].process.kill('SIGKILL');
      await cluster.restart(i);
      restarts++;
    }
    await sleep(500);
    stop = true;
    await Promise.all(writers);
    const found = await db.query<{ n: number }>('select count(*)::int as n from locations where id = any($1::bigint[])', [acknowledged]);
    check(
      restarts === cycles && found.rows[0].n === acknowledged.length && acknowledged.length > 0,
      `${cycles} kill -9 / restart cycles: ${acknowledged.length} acknowledged writes all in the database (${refused} refused or cut while an instance was down), every restart clean`,
    );
  } finally {
    await db.end();
  }
}

const cluster = await startCluster({ quiet: true });
try {
  await main(cluster);
} catch (e) {
  console.error(e);
  failures++;
} finally {
  await cluster.stop();
}
console.log(failures ? `${failures} check(s) failed` : 'all cluster checks passed');
process.exit(failures ? 1 : 0);
