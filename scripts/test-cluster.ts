/**
 * `npm run test:cluster`: what a cluster must guarantee, checked on a real cluster (scripts/cluster.ts: Debian PostgreSQL, s3rver, two
 * instances A and B, HAProxy in front). Checks, in order:
 * 5. the two instances started together on the empty database migrated it once;
 * 1. Chromium signed in to the app on B (its page and WebSocket on B itself, not through the proxy) shows a scan
 *    ingested through A in the scan list without a reload; 500 pusher-js subscribers of four scopes, spread over A and
 *    B, each get every event of their scope and none outside it;
 * 2. a file uploaded through A is served by B; the scan export made on A downloads through B;
 * 3. both instances deliver 1,000 webhook events to a receiver failing half the time: each at least once, none twice;
 *    then 1,000 more with A killed (`kill -9`) mid-way: none lost;
 * 4. CLUSTER_KILL_CYCLES (default 100) `kill -9` / restart cycles of an instance during concurrent writes through the
 *    load balancer: every write acknowledged with a 2xx is in the database, every restart clean.
 * Each check prints ok or FAIL with its figures; exits 1 when any failed. Prints the total time.
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import { chromium } from '@playwright/test';
import pg from 'pg';
import Pusher from 'pusher-js';
import { CHROMIUM, CHROMIUM_FLAGS } from '../tests/chromium';
import { close, flakyReceiver, listen } from '../tests/server/webhook-receiver';
import { startCluster, type Cluster, type Instance } from './cluster';

const PASSWORD = 'demo-password-1';
const SUBSCRIBERS = 500;
const KILL_CYCLES = Number(process.env.CLUSTER_KILL_CYCLES ?? 100);
const begun = performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
let failures = 0;
function check(ok: boolean, what: string) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} [${seconds(performance.now() - begun)}] ${what}`);
  if (!ok) failures++;
}

async function json<T>(url: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  if (init.body && typeof init.body === 'string') headers.set('content-type', 'application/json');
  const res = await fetch(url, { ...init, headers });
  const text = await res.text();
  let body: { data: T };
  try {
    body = (text ? JSON.parse(text) : {}) as { data: T };
  } catch {
    throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text.slice(0, 200)}`);
  }
  return { status: res.status, body, text };
}

async function waitFor(what: string, ok: () => boolean | Promise<boolean>, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Runs `task` over `items`, `width` at a time. */
async function pool<T, R>(items: T[], width: number, task: (item: T, i: number) => Promise<R>) {
  const out: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await task(items[i], i);
      }
    }),
  );
  return out;
}

interface Device {
  id: number;
  agent: number;
  client: number | null;
}

async function main(cluster: Cluster, db: pg.Client) {
  const [a, b] = cluster.instances;

  // 5. Migrated once.
  const applied = cluster.instances.map((i) => i.lines.filter((l) => l.startsWith('migration applied')).length);
  const dupes = await db.query('select version from schema_migrations group by version having count(*) > 1');
  check(
    applied.filter((n) => n > 0).length === 1 && dupes.rowCount === 0,
    `two instances started together migrated once (${applied.join(' / ')} files applied)`,
  );

  // Who is who: the demo's Super Admin, Agent user (agent 1) and Client user (client 1), and an Agent user of agent 2.
  const login = async (email: string) => {
    const r = await json<{ token: string; id: number }>(`${cluster.url}/api/user/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    if (r.status !== 200) throw new Error(`sign-in of ${email}: ${r.status} ${r.text}`);
    return r.body.data;
  };
  const ids = (
    await db.query<{ agent1: number; agent2: number; client1: number }>(`select
      (select id from agents where name = 'Melbourne Auto Scan')::int as agent1,
      (select id from agents where name = 'Harbour City Drive-Through')::int as agent2,
      (select uc.client_id from user_clients uc join users u on u.id = uc.user_id where u.email = 'client@demo.test')::int as client1`)
  ).rows[0];
  await db.query(`insert into users (email, first_name, last_name, password_hash)
    select 'agent2@cluster.test', 'Harbour', 'Agent', password_hash from users where email = 'agent@demo.test'`);
  await db.query(`insert into user_roles (user_id, role_id) select u.id, r.id from users u, roles r
    where u.email = 'agent2@cluster.test' and r.name = 'Agent'`);
  await db.query(`insert into user_agents (user_id, agent_id) select id, $1 from users where email = 'agent2@cluster.test'`, [ids.agent2]);
  const admin = await login('admin@demo.test');
  const agentUser = await login('agent@demo.test');
  const agent2User = await login('agent2@cluster.test');
  const clientUser = await login('client@demo.test');
  const apiKey = async (user: number) =>
    (await json<{ token: string }>(`${cluster.url}/api/user/users/${user}/apikey`, { token: admin.token })).body.data.token;
  const keys = { [ids.agent1]: await apiKey(agentUser.id), [ids.agent2]: await apiKey(agent2User.id) };
  const devices = (
    await db.query<Device>(
      `select id::int, agent_id::int as agent, default_client_id::int as client from devices
      where agent_id = any($1::bigint[]) order by id`,
      [[ids.agent1, ids.agent2]],
    )
  ).rows;
  let serial = 0;
  /** A device's scan through `via` (an instance or the load balancer); its plate is unique to this run. */
  const ingest = async (via: string, device: Device, prefix: string) => {
    const plate = `${prefix}${String(++serial).padStart(4, '0')}`;
    const r = await json<{ id: number }>(`${via}/api/scan/ingest/scans`, {
      method: 'POST',
      token: keys[device.agent],
      body: JSON.stringify({ scan_id: `cluster-${Date.now()}-${serial}`, device_id: device.id, type: 'arch', licensePlate: plate }),
    });
    if (r.status !== 201) throw new Error(`ingest through ${via}: ${r.status} ${r.text.slice(0, 200)}`);
    return { plate, agent: device.agent, client: device.client };
  };

  // 1a. Chromium signed in on B shows a scan ingested through A, live.
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage({ baseURL: b.url });
    const sockets: string[] = [];
    let subscribed = false;
    page.on('websocket', (ws) => {
      sockets.push(ws.url());
      ws.on('framereceived', (f) => {
        const text = String(f.payload);
        if (text.includes('pusher_internal:subscription_succeeded') && text.includes('"private-scan"')) subscribed = true;
      });
    });
    await page.goto('/login');
    await page.getByLabel('Email').fill('admin@demo.test');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(/\/$/);
    const terms = page.getByRole('dialog').filter({ hasText: 'I agree to the Terms and Conditions' });
    if (
      await terms.waitFor({ timeout: 3000 }).then(
        () => true,
        () => false,
      )
    ) {
      await terms.getByRole('checkbox').check();
      await terms.getByRole('button', { name: 'Submit' }).click();
      await terms.waitFor({ state: 'hidden' });
    }
    await page.getByRole('navigation').getByRole('link', { name: 'Scans', exact: true }).click();
    await page.waitForURL(/\/scans$/);
    const rows = page
      .getByRole('table', { name: 'Scans' })
      .locator('tbody tr')
      .filter({ has: page.getByRole('link', { name: 'Edit' }) });
    await rows.first().waitFor();
    await waitFor('the page to subscribe to private-scan', () => subscribed, 15_000);
    // A reload would lose this.
    await page.evaluate(() => Object.assign(window, { clusterMark: 'same page' }));
    const device = devices.find((d) => d.agent === ids.agent1)!;
    const started = performance.now();
    const { plate } = await ingest(a.url, device, 'LIVE');
    const shown = await rows
      .filter({ hasText: plate })
      .first()
      .waitFor({ timeout: 15_000 })
      .then(
        () => performance.now() - started,
        () => null,
      );
    const same = await page.evaluate(() => (window as unknown as { clusterMark?: string }).clusterMark === 'same page');
    const onB = sockets.length > 0 && sockets.every((u) => new URL(u).port === String(b.port));
    check(
      shown !== null && same && onB,
      `Chromium signed in on B (WebSocket ${sockets.join(', ') || 'none'}) showed the scan ingested through A in its list ` +
        `without a reload${shown === null ? ': NOT SHOWN' : ` (${Math.round(shown)} ms after the ingest call)`}`,
    );
  } finally {
    await browser.close();
  }

  // 1b. 500 subscribers of four scopes over both instances: every event of their scope, none outside.
  type Scan = { plate: string; agent: number; client: number | null };
  const groups: { name: string; token: string; sees: (s: Scan) => boolean }[] = [
    { name: 'Super Admin', token: admin.token, sees: () => true },
    { name: 'Agent user of agent 1', token: agentUser.token, sees: (s) => s.agent === ids.agent1 },
    { name: 'Agent user of agent 2', token: agent2User.token, sees: (s) => s.agent === ids.agent2 },
    { name: 'Client user of client 1', token: clientUser.token, sees: (s) => s.client === ids.client1 },
  ];
  const key = (await json<{ key: string }>(`${b.url}/api/broadcasting/config`)).body.data.key;
  const subscribers: { group: number; on: Instance; pusher: Pusher; got: string[] }[] = [];
  try {
    const connectStarted = performance.now();
    await pool(
      Array.from({ length: SUBSCRIBERS }, (_, i) => i),
      50,
      (i) =>
        new Promise<void>((resolve, reject) => {
          const group = i % groups.length;
          const on = cluster.instances[Math.floor(i / groups.length) % 2];
          const pusher = new Pusher(key, {
            wsHost: '127.0.0.1',
            wsPort: on.port,
            forceTLS: false,
            enabledTransports: ['ws'],
            disableStats: true,
            cluster: '',
            channelAuthorization: {
              endpoint: `${cluster.url}/api/broadcasting/auth`,
              transport: 'ajax',
              headers: { Authorization: `Bearer ${groups[group].token}` },
            },
          });
          const sub = { group, on, pusher, got: [] as string[] };
          subscribers.push(sub);
          const channel = pusher.subscribe('private-scan');
          channel.bind_global((event: string, data: { licensePlate?: string } | undefined) => {
            if (!event.startsWith('pusher:') && !event.startsWith('pusher_internal:')) sub.got.push(`${event} ${data?.licensePlate}`);
          });
          channel.bind('pusher:subscription_succeeded', () => resolve());
          channel.bind('pusher:subscription_error', (e: { status?: number }) => reject(new Error(`subscriber ${i} refused: ${e.status}`)));
        }),
    );
    const connectMs = performance.now() - connectStarted;
    // 24 scans from devices of both agents (and so of several clients), half through A and half through B.
    const sources = devices
      .filter((d) => d.agent === ids.agent1)
      .slice(0, 3)
      .concat(devices.filter((d) => d.agent === ids.agent2).slice(0, 3));
    const sent: Scan[] = [];
    const publishStarted = performance.now();
    for (let n = 0; n < 24; n++) sent.push(await ingest(cluster.instances[n % 2].url, sources[n % sources.length], 'SUB'));
    const expected = subscribers.map((s) => sent.filter(groups[s.group].sees).map((x) => `created ${x.plate}`));
    await waitFor(
      'every subscriber to get its events',
      () => subscribers.every((s, i) => s.got.length >= expected[i].length),
      30_000,
    ).catch(() => {});
    const deliveredMs = performance.now() - publishStarted;
    // Anything outside a scope would have arrived with the rest; a moment more for stragglers.
    await sleep(1000);
    const wrong = subscribers.filter((s, i) => JSON.stringify([...s.got].sort()) !== JSON.stringify([...expected[i]].sort()));
    const perGroup = groups.map((g) => `${g.name} ${sent.filter(g.sees).length}`).join(', ');
    const onEach = cluster.instances.map((inst) => subscribers.filter((s) => s.on === inst).length).join(' / ');
    check(
      wrong.length === 0 && subscribers.length === SUBSCRIBERS && groups.every((g) => sent.filter(g.sees).length > 0),
      `${SUBSCRIBERS} pusher-js subscribers (${onEach} on A / B, subscribed in ${seconds(connectMs)}) each got exactly the events ` +
        `of their scope of 24 scans (${perGroup}) in ${seconds(deliveredMs)}` +
        (wrong.length
          ? `; ${wrong.length} did not, e.g. ${groups[wrong[0].group].name} on ${wrong[0].on.port}: ${wrong[0].got.length} events`
          : ''),
    );
  } finally {
    for (const s of subscribers) s.pusher.disconnect();
  }

  // 2. Uploaded through A, served by B; an export made on A downloads through B.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'dot.png');
  const up = await fetch(`${a.url}/api/user/file/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${admin.token}` },
  });
  const url = ((await up.json()) as { data: { url: string } }).data.url;
  const served = await fetch(`${b.url}${url}`);
  const bytes = Buffer.from(await served.arrayBuffer());
  check(
    up.status === 201 && served.status === 200 && bytes.equals(png),
    `a file uploaded through A is served by B, byte for byte (${url})`,
  );
  const exp = await json<{ url: string }>(`${a.url}/api/scan/scans/export-scan-report`, { token: admin.token });
  const download = await fetch(`${b.url}${exp.body.data.url}`);
  const csv = await download.text();
  check(
    download.status === 200 && csv.includes('LIVE0001'),
    `the scan export made on A downloads through B (${exp.status} then ${download.status}, ${csv.length} bytes)`,
  );

  await webhooks(cluster, db, admin.token, ids.agent2, (via) =>
    ingest(
      via,
      devices.find((d) => d.agent === ids.agent2)!,
      'HOOK',
    ),
  );
  await killCycles(cluster, db, admin.token);
}

/** Which processes have a TCP connection open to `port` now (`ss`): the instances that are sending to a receiver. */
function sendersTo(port: number) {
  return new Promise<Set<number>>((resolve) => {
    execFile('ss', ['-Htnp', 'dst', `127.0.0.1:${port}`], (err, out) => {
      resolve(new Set(err ? [] : [...out.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1]))));
    });
  });
}

/** 3. Webhooks: 1,000 events delivered by both instances, then 1,000 more with one killed mid-way. */
async function webhooks(cluster: Cluster, db: pg.Client, token: string, agent: number, scan: (via: string) => Promise<unknown>) {
  // More endpoints than one instance sends to at once (20): whichever instance looks first cannot take every lane.
  const LANES = 25;
  const SCANS = 40;
  // Each answer after 5 ms, so that sends are under way at any moment.
  const receiver = flakyReceiver(5);
  const port = await listen(receiver.server, cluster.sparePort);
  try {
    for (let i = 0; i < LANES; i++) {
      const r = await json(`${cluster.url}/api/agent/webhooks`, {
        method: 'POST',
        token,
        body: JSON.stringify({ agent_id: agent, endpoint: `http://127.0.0.1:${port}/lane/${i}`, events: ['scan.created'] }),
      });
      if (r.status !== 201) throw new Error(`creating a webhook: ${r.status} ${r.text.slice(0, 300)}`);
    }
    const messages = async () =>
      (
        await db.query<{ message_id: string; status: string }>(
          `select d.message_id, d.status from webhook_deliveries d join webhooks w on w.id = d.webhook_id where w.endpoint like $1`,
          [`http://127.0.0.1:${port}/%`],
        )
      ).rows;
    const pending = async () => (await messages()).filter((m) => m.status !== 'delivered').length;

    // Both up: the instances' sockets to the receiver are sampled to see that both deliver.
    const pids = new Map(cluster.instances.map((inst, i) => [inst.process.pid!, i]));
    const seen = new Set<number>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const pid of await sendersTo(port)) if (pids.has(pid)) seen.add(pids.get(pid)!);
        await sleep(50);
      }
    })();
    const started = performance.now();
    await pool(
      Array.from({ length: SCANS }, () => cluster.url),
      4,
      (via) => scan(via),
    );
    const first = new Set((await messages()).map((m) => m.message_id));
    await waitFor('the first 1,000 deliveries', async () => (await pending()) === 0, 240_000);
    const took = performance.now() - started;
    sampling = false;
    await sampler;
    const acceptedFirst = [...first].filter((id) => receiver.accepted.has(id)).length;
    const twiceFirst = [...receiver.accepted.values()].filter((n) => n > 1).length;
    const bothUp = cluster.instances.every((i) => i.process.exitCode === null && i.process.signalCode === null);
    check(
      first.size === LANES * SCANS &&
        acceptedFirst === first.size &&
        receiver.accepted.size === first.size &&
        twiceFirst === 0 &&
        bothUp &&
        seen.size === 2,
      `${first.size} webhook events, receiver failing half the time: ${acceptedFirst} delivered at least once, ${twiceFirst} twice, ` +
        `${receiver.requests()} attempts in ${seconds(took)}, sent by instance${seen.size === 2 ? 's A and B' : ` ${[...seen].map((i) => 'AB'[i]).join('') || 'none seen'}`}, both up`,
    );

    // One killed (kill -9) mid-way through 1,000 more: the other takes its claims over once they lapse.
    const before = new Set(receiver.accepted.keys());
    await pool(
      Array.from({ length: SCANS }, () => cluster.url),
      4,
      (via) => scan(via),
    );
    const second = (await messages()).map((m) => m.message_id).filter((id) => !first.has(id));
    await waitFor(
      'a quarter of the next deliveries',
      () => second.filter((id) => receiver.accepted.has(id)).length >= second.length / 4,
      120_000,
    );
    // Killed while it has a connection open to the receiver: a send under way. The receiver holds its answers
    // meanwhile, so that the other instance cannot finish the lot before A is seen sending (it sends on at most 20 of
    // the 25 lanes at once).
    const victim = cluster.instances[0];
    receiver.hold();
    await waitFor('instance A to be sending', async () => (await sendersTo(port)).has(victim.process.pid!), 30_000);
    victim.process.kill('SIGKILL');
    receiver.release();
    const killedAt = performance.now();
    const claimed = Number(
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from webhook_deliveries where claimed_until > now() and status = 'pending'`,
        )
      ).rows[0].n,
    );
    await waitFor('the rest after the kill', async () => (await pending()) === 0, 120_000);
    const lost = second.filter((id) => !receiver.accepted.has(id)).length;
    const twice = second.filter((id) => (receiver.accepted.get(id) ?? 0) > 1).length;
    check(
      second.length === LANES * SCANS && lost === 0 && twice <= claimed && before.size === first.size,
      `${second.length} more with instance A killed (kill -9) mid-way: ${lost} lost, ${twice} delivered twice ` +
        `(at most the ${claimed} claimed when A, sending, was killed; receivers dedupe by webhook-id), the rest done ${seconds(performance.now() - killedAt)} after the kill`,
    );
    const back = await cluster.restart(0);
    console.log(`     instance A restarted in ${seconds(back.readyMs)}`);
  } finally {
    receiver.release();
    await close(receiver.server);
  }
}

/** 4. kill -9 / restart cycles during concurrent writes through the load balancer. */
async function killCycles(cluster: Cluster, db: pg.Client, token: string) {
  const acknowledged: number[] = [];
  let refused = 0;
  let stop = false;
  const writer = async (w: number) => {
    for (let n = 0; !stop; n++) {
      try {
        const r = await json<{ id: number }>(`${cluster.url}/api/agent/locations`, {
          method: 'POST',
          token,
          body: JSON.stringify({ name: `kill-${w}-${n}`, state: 'VIC' }),
        });
        if (r.status >= 200 && r.status < 300) acknowledged.push(Number(r.body.data.id));
        else refused++;
      } catch {
        refused++;
      }
      // Steady writes (up to about 150 a second), not a flood: on two cores a flood would starve the restarting instance.
      await sleep(20);
    }
  };
  const writers = Array.from({ length: 4 }, (_, w) => writer(w));
  const restarted: Instance[] = [];
  const ready: number[] = [];
  const balanced: number[] = [];
  let failed: string | null = null;
  const started = performance.now();
  for (let c = 0; c < KILL_CYCLES && !failed; c++) {
    const i = c % 2;
    // Writes reach both instances for a moment before each kill.
    await sleep(150);
    cluster.instances[i].process.kill('SIGKILL');
    try {
      const t = await cluster.restart(i);
      ready.push(t.readyMs);
      balanced.push(t.balancedMs);
      restarted.push(cluster.instances[i]);
    } catch (e) {
      failed = `cycle ${c + 1}: ${(e as Error).message}`;
    }
    if ((c + 1) % 25 === 0) console.log(`     ${c + 1} cycles, ${acknowledged.length} writes acknowledged`);
  }
  await sleep(300);
  stop = true;
  await Promise.all(writers);
  const took = performance.now() - started;
  const found = await db.query<{ n: number }>('select count(*)::int as n from locations where id = any($1::bigint[])', [acknowledged]);
  // A clean start: no error line (JSON level 50 and above) and no migration (the database was already up to date).
  const unclean = restarted.filter((inst) =>
    inst.lines.some((l) => l.startsWith('migration applied') || /"level":(50|60)\b/.test(l) || /^(Error|Invalid configuration)/.test(l)),
  );
  const alive = cluster.instances.every((inst) => inst.process.exitCode === null && inst.process.signalCode === null);
  const sorted = [...ready].sort((x, y) => x - y);
  check(
    !failed &&
      ready.length === KILL_CYCLES &&
      unclean.length === 0 &&
      alive &&
      found.rows[0].n === acknowledged.length &&
      acknowledged.length > 0,
    `${KILL_CYCLES} kill -9 / restart cycles in ${seconds(took)}: ${acknowledged.length} acknowledged writes, ${found.rows[0].n} of them in the database ` +
      `(${refused} refused or cut while an instance was down); restarts ready in median ${seconds(sorted[Math.floor(sorted.length / 2)] ?? NaN)}, ` +
      `max ${seconds(sorted[sorted.length - 1] ?? NaN)}, back behind the load balancer in max ${seconds(Math.max(...balanced))}` +
      `${unclean.length ? `; ${unclean.length} restarts logged errors, e.g. ${unclean[0].lines.find((l) => /"level":(50|60)/.test(l))}` : ''}` +
      `${failed ? `; ${failed}` : ''}`,
  );
}

const cluster = await startCluster({
  quiet: true,
  env: {
    // Webhooks: retried at once (up to 30 times) and a crashed instance's claims lapse after 2 + 2 s, not the production hours.
    WEBHOOK_RETRY_SECONDS: Array(30).fill('0').join(','),
    WEBHOOK_TIMEOUT_SECONDS: '2',
    WEBHOOK_CLAIM_MARGIN_SECONDS: '2',
  },
});
console.log(
  `cluster up in ${seconds(performance.now() - begun)} (${cluster.url}; instances ${cluster.instances.map((i) => i.port).join(', ')})`,
);
const db = new pg.Client({ connectionString: cluster.databaseUrl });
await db.connect();
try {
  await main(cluster, db);
} catch (e) {
  console.error(e);
  failures++;
} finally {
  await db.end();
  await cluster.stop();
}
console.log(
  `${failures ? `${failures} check(s) failed` : 'all cluster checks passed'} in ${seconds(performance.now() - begun)} (load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')})`,
);
process.exit(failures ? 1 : 0);
