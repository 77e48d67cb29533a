import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inScope, type DataScope } from '../src/domain/permissions';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { createDatabase, type Database } from '../server/db/database';
import { startEmbeddedPostgres } from '../server/db/embedded';
import { migrate } from '../server/db/migrate';
import { hashToken, newToken } from '../server/lib/tokens';
import { hashPassword } from '../server/services/user/auth-service';
import type { ClientPlan, FromClients, ToClients } from './realtime-clients';
import { ms, percentile } from './report';

export type RealtimeBenchVia = 'broadcaster' | 'ingestion';

export interface RealtimeBenchOptions {
  /** Open browser connections, each subscribed to private-scan (default 500). */
  connections?: number;
  /** Scan events published per phase (default 200). */
  events?: number;
  /** Pause between events, ms (default 10). */
  intervalMs?: number;
  /**
   * How scans are published, one phase each (default both): 'broadcaster' calls app.broadcaster.scanCreated;
   * 'ingestion' makes the device call POST /api/scan/ingest/scans with an API key (HTTP, database, then the event).
   */
  via?: RealtimeBenchVia[];
  /** An existing scratch PostgreSQL (its schema is migrated); default: an embedded one in a temp dir. */
  databaseUrl?: string;
  log?: (line: string) => void;
}

export interface RealtimeBenchPhase {
  via: RealtimeBenchVia;
  events: number;
  /** (event, connection) pairs that should arrive, and those that did. */
  expected: number;
  delivered: number;
  /** Events that reached a connection whose user may not see them (must be 0). */
  misdelivered: number;
  /** Publish call started -> event parsed in the browser process, ms, over every delivery. */
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** p95 < 100 ms, everything delivered, nothing outside scope. */
  met: boolean;
}

export interface RealtimeBenchResult {
  connections: number;
  /** The server process's growth per open, subscribed connection (heap after a GC when --expose-gc, and RSS), bytes. */
  perConnection: { heapBytes: number; rssBytes: number };
  phases: RealtimeBenchPhase[];
}

const now = () => performance.timeOrigin + performance.now();

async function seed(db: Database) {
  const password = 'bench-password-1';
  const hash = await hashPassword(password);
  const [agentA, agentB] = await db
    .insertInto('agents')
    .values([{ name: 'Bench Agent A' }, { name: 'Bench Agent B' }])
    .returning('id')
    .execute();
  const [clientA, clientB] = await db
    .insertInto('clients')
    .values([{ name: 'Bench Client A' }, { name: 'Bench Client B' }])
    .returning('id')
    .execute();
  const roles = new Map((await db.selectFrom('roles').select(['id', 'name']).execute()).map((r) => [r.name, r.id]));
  const tag = randomBytes(4).toString('hex');
  const user = async (name: string, role: string, agents: number[], clients: number[]) => {
    const u = await db
      .insertInto('users')
      .values({ email: `bench-${name}-${tag}@example.test`, first_name: 'Bench', last_name: name, password_hash: hash })
      .returning(['id', 'email'])
      .executeTakeFirstOrThrow();
    await db
      .insertInto('user_roles')
      .values({ user_id: u.id, role_id: roles.get(role)! })
      .execute();
    for (const agent_id of agents) await db.insertInto('user_agents').values({ user_id: u.id, agent_id }).execute();
    for (const client_id of clients) await db.insertInto('user_clients').values({ user_id: u.id, client_id }).execute();
    return u.email;
  };
  // Browsers of four kinds, so the bench also checks that scoped delivery holds under load.
  const groups: { email: string; share: number; scope: DataScope }[] = [
    { email: await user('admin', 'Super Admin', [], []), share: 0.4, scope: { agents: null, clients: null } },
    { email: await user('agent-a', 'Agent', [agentA.id], []), share: 0.3, scope: { agents: [agentA.id], clients: null } },
    { email: await user('agent-b', 'Agent', [agentB.id], []), share: 0.2, scope: { agents: [agentB.id], clients: null } },
    { email: await user('client-a', 'Client', [], [clientA.id]), share: 0.1, scope: { agents: null, clients: [clientA.id] } },
  ];
  const pairs = [
    [agentA.id, clientA.id],
    [agentB.id, clientB.id],
    [agentA.id, clientB.id],
    [agentB.id, clientA.id],
  ] as const;
  // A scanner per (agent, client) pair, and the API key of a user of both agents, for the ingestion phase.
  const [locA, locB] = await db
    .insertInto('locations')
    .values([
      { name: 'Bench Depot A', state: 'VIC', agent_id: agentA.id },
      { name: 'Bench Depot B', state: 'NSW', agent_id: agentB.id },
    ])
    .returning('id')
    .execute();
  const devices: number[] = [];
  for (const [i, [agent_id, default_client_id]] of pairs.entries()) {
    const d = await db
      .insertInto('devices')
      .values({
        type: 'arch',
        serial: `BENCH${tag}${i}`,
        agent_id,
        default_client_id,
        location_id: agent_id === agentA.id ? locA.id : locB.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    devices.push(d.id);
  }
  const apiKey = newToken();
  const device = await user('device', 'Agent', [agentA.id, agentB.id], []);
  await db
    .updateTable('users')
    .set({ api_key_hash: hashToken(apiKey) })
    .where('email', '=', device)
    .execute();
  return { password, groups, pairs, devices, apiKey };
}

/**
 * Device scan to browser: starts the app on a scratch database, opens `connections` Pusher-protocol
 * WebSocket clients in a separate process (subscribed to private-scan with real auth, under four
 * different scopes), publishes `events` scans per phase (straight through the broadcaster, then as a
 * device through the ingestion API) and measures publish → receive latency over every delivery.
 * Prints p50/p95/p99/max per phase and checks that nobody received a scan outside their scope.
 */
export async function benchRealtime(opts: RealtimeBenchOptions = {}): Promise<RealtimeBenchResult> {
  const connections = opts.connections ?? 500;
  const events = opts.events ?? 200;
  const intervalMs = opts.intervalMs ?? 10;
  const via = opts.via ?? ['broadcaster', 'ingestion'];
  const log = opts.log ?? ((line: string) => console.log(line));
  const cleanup: (() => Promise<void>)[] = [];
  try {
    let url = opts.databaseUrl;
    if (!url) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanquote-bench-rt-'));
      fs.chmodSync(dir, 0o755);
      const pg = await startEmbeddedPostgres(dir, 30000 + Math.floor(Math.random() * 20000), 'bench_realtime');
      cleanup.unshift(async () => {
        // pg's pool.end() resolves before its sockets finish closing; stopping at once makes them report a lost connection.
        await new Promise((r) => setTimeout(r, 200));
        await pg.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      });
      url = pg.url;
    }
    await migrate(url);
    const db = createDatabase(url, 10);
    cleanup.unshift(() => db.destroy());
    const { password, groups, pairs, devices, apiKey } = await seed(db);

    const config = loadConfig({
      LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
      DATABASE_URL: url,
      STATIC_DIR: 'does-not-exist',
      RATE_LIMIT_PER_MINUTE: '1000000',
      SEED_DEMO: 'false',
      // Every bench browser comes from 127.0.0.1.
      REALTIME_MAX_CONNECTIONS_PER_ADDRESS: String(connections + 100),
      REALTIME_MAX_UNSUBSCRIBED: String(connections + 100),
    });
    const app = await buildApp({ config, db });
    cleanup.unshift(() => app.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    const baseUrl = `http://127.0.0.1:${address.port}`;
    const key = ((await (await fetch(`${baseUrl}/api/broadcasting/config`)).json()) as { data: { key: string } }).data.key;

    const tokens = new Map<string, string>();
    for (const g of groups) {
      const res = await fetch(`${baseUrl}/api/user/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: g.email, password }),
      });
      tokens.set(g.email, ((await res.json()) as { data: { token: string } }).data.token);
    }
    const groupOf: number[] = [];
    groups.forEach((g, gi) => {
      for (let i = 0; i < Math.round(g.share * connections); i++) groupOf.push(gi);
    });
    while (groupOf.length < connections) groupOf.push(0);
    groupOf.length = connections;

    const child = fork(fileURLToPath(new URL('./realtime-clients.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      stdio: 'inherit',
    });
    cleanup.unshift(async () => {
      if (child.connected) child.send({ type: 'close' } satisfies ToClients);
    });
    const reply = <T extends FromClients['type']>(type: T) =>
      new Promise<Extract<FromClients, { type: T }>>((resolve, reject) => {
        const on = (m: FromClients) => {
          if (m.type === 'failed') {
            child.off('message', on);
            reject(new Error(m.error));
          }
          if (m.type === type) {
            child.off('message', on);
            resolve(m as Extract<FromClients, { type: T }>);
          }
        };
        child.on('message', on);
      });
    const plan: ClientPlan = {
      wsUrl: `ws://127.0.0.1:${address.port}/app/${key}?protocol=7&client=js&version=8.6.0`,
      authUrl: `${baseUrl}/api/broadcasting/auth`,
      tokens: groupOf.map((g) => tokens.get(groups[g].email)!),
    };
    const memory = () => {
      (globalThis as { gc?: () => void }).gc?.();
      const m = process.memoryUsage();
      return { heap: m.heapUsed, rss: m.rss };
    };
    const before = memory();
    const opening = now();
    child.send({ type: 'start', plan } satisfies ToClients);
    const ready = await reply('ready');
    const after = memory();
    const perConnection = {
      heapBytes: Math.round((after.heap - before.heap) / ready.connected),
      rssBytes: Math.round((after.rss - before.rss) / ready.connected),
    };
    log(`realtime: ${ready.connected} connections open and subscribed in ${Math.round(now() - opening)} ms`);
    log(
      `realtime: server memory per subscribed connection: heap ${(perConnection.heapBytes / 1024).toFixed(1)} KiB, RSS ${(perConnection.rssBytes / 1024).toFixed(1)} KiB`,
    );

    const phases: RealtimeBenchPhase[] = [];
    for (const [pi, phase] of via.entries()) {
      const sentAt = new Map<string, { at: number; agent_id: number; client_id: number }>();
      const failures: string[] = [];
      for (let i = 0; i < events; i++) {
        const pair = i % pairs.length;
        const [agentId, clientId] = pairs[pair];
        const licensePlate = `BENCH${pi}${String(i).padStart(5, '0')}`;
        sentAt.set(licensePlate, { at: now(), agent_id: agentId, client_id: clientId });
        if (phase === 'broadcaster') {
          await app.broadcaster.scanCreated({
            id: i + 1,
            agent_id: agentId,
            client_id: clientId,
            status: 'metadata',
            type: 'arch',
            carColor: 'Silver',
            licensePlate,
            make: 'Toyota',
            model: 'Hilux',
            client_name: 'Bench Client',
            body_type: 'Ute',
            valuation: 32000,
            location_state: 'VIC',
          });
        } else {
          const res = await fetch(`${baseUrl}/api/scan/ingest/scans`, {
            method: 'POST',
            headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              scan_id: `bench-${pi}-${i}`,
              device_id: devices[pair],
              type: 'arch',
              licensePlate,
              make: 'Toyota',
              model: 'Hilux',
              carColor: 'Silver',
              body_type: 'Ute',
              client_id: clientId,
            }),
          });
          if (res.status !== 201) failures.push(`${res.status} ${(await res.text()).slice(0, 200)}`);
        }
        if (intervalMs > 0) await new Promise((r) => setTimeout(r, intervalMs));
      }
      if (failures.length) log(`realtime (${phase}): ${failures.length} of ${events} calls failed, first: ${failures[0]}`);
      // Let the last deliveries land.
      await new Promise((r) => setTimeout(r, 500));
      child.send({ type: 'collect' } satisfies ToClients);
      const { samples } = await reply('samples');

      let expected = 0;
      for (const e of sentAt.values()) for (const g of groupOf) if (inScope(groups[g].scope, e)) expected++;
      const latencies: number[] = [];
      let misdelivered = 0;
      for (const [conn, plate, at] of samples) {
        const e = sentAt.get(plate);
        if (!e) continue;
        if (!inScope(groups[groupOf[conn]].scope, e)) {
          misdelivered++;
          continue;
        }
        latencies.push(at - e.at);
      }
      latencies.sort((a, b) => a - b);
      const p95 = percentile(latencies, 95);
      const result: RealtimeBenchPhase = {
        via: phase,
        events,
        expected,
        delivered: latencies.length,
        misdelivered,
        p50: percentile(latencies, 50),
        p95,
        p99: percentile(latencies, 99),
        max: latencies[latencies.length - 1] ?? NaN,
        met: p95 < 100 && latencies.length === expected && misdelivered === 0,
      };
      phases.push(result);
      const how = phase === 'broadcaster' ? 'app.broadcaster.scanCreated' : 'device POST /api/scan/ingest/scans';
      log(
        `realtime (${phase}): ${events} scans via ${how}, every ${intervalMs} ms, to ${ready.connected} browsers: ${result.delivered}/${expected} deliveries, ${misdelivered} outside scope`,
      );
      log(
        `realtime (${phase}): scan -> browser p50 ${ms(result.p50)}  p95 ${ms(result.p95)}  p99 ${ms(result.p99)}  max ${ms(result.max)}  (target p95 < 100 ms: ${result.met ? 'met' : 'NOT MET'})`,
      );
    }
    return { connections: ready.connected, perConnection, phases };
  } finally {
    for (const step of cleanup) await step().catch(() => {});
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // `npx tsx --expose-gc bench/realtime.ts 5000`: that many browsers (default 500).
  const r = await benchRealtime({ connections: process.argv[2] ? Number(process.argv[2]) : undefined });
  process.exitCode = r.phases.every((p) => p.met) ? 0 : 1;
}
