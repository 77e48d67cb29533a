/**
 * Plays one or more scanning devices against a running server, through the device ingestion API
 * (docs/ingestion.md), so the scan list, dashboard and portal update live.
 *
 *   npm run simulate -- [--url http://localhost:8080] [--agent 1[,2]] [--every 5s] [--count 20] [--key <api key>] [--device <id>]
 *
 * Without --key it signs in as the demo Super Admin (--email / --password, default admin@demo.test / demo-password-1) and,
 * for each agent, uses a scanner user `scanner.agent<id>@devices.test` (created if missing, role Agent, that agent only),
 * generating its API key with GET /api/user/users/{id}/apikey. That replaces the scanner user's previous key, never a person's.
 * --count 0 plays until Ctrl-C.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { ScanType } from '../src/domain/scan-codes';
import { createRng, generateScan, type GeneratedScan } from '../server/scans-generator';
import { colourHex } from '../server/scans-generator/vehicles';
import { damageImage, sampleVideo, tyreChart, tyreImage, vehicleImage, videoThumbnail } from '../server/scans-generator/images';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.SIMULATE_URL ?? 'http://localhost:8080' },
    agent: { type: 'string' },
    device: { type: 'string' },
    every: { type: 'string', default: '5s' },
    count: { type: 'string', default: '20' },
    key: { type: 'string', default: process.env.SCANNER_API_KEY },
    email: { type: 'string', default: 'admin@demo.test' },
    password: { type: 'string', default: 'demo-password-1' },
    'phase-delay': { type: 'string', default: '700ms' },
    seed: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (args.help) {
  console.log(
    'npm run simulate -- [--url http://localhost:8080] [--agent 1[,2]] [--every 5s] [--count 20] [--key <api key>] [--device <id>] [--phase-delay 700ms]',
  );
  process.exit(0);
}

/** '5s', '500ms', '2m' or a number of seconds. */
function duration(s: string) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(s.trim());
  if (!m) throw new Error(`Not a duration: ${s} (use 500ms, 5s or 2m)`);
  return Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000 }[m[2] ?? 's'] ?? 1000);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const base = args.url.replace(/\/+$/, '');
const every = duration(args.every);
const phaseDelay = duration(args['phase-delay']);
const count = Number(args.count);
const agentFilter = args.agent
  ? args.agent
      .split(',')
      .map((s) => Number(s.trim()))
      .filter((n) => n > 0)
  : null;

class HttpError extends Error {
  constructor(
    public status: number,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(method: string, path: string, opts: { token?: string; json?: unknown; form?: FormData } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: opts.form ?? (opts.json !== undefined ? JSON.stringify(opts.json) : undefined),
  });
  const text = await res.text();
  if (!res.ok) throw new HttpError(res.status, `${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : null) as T;
}

interface Device {
  id: number;
  serial: string;
  type: string;
  agent_id: number;
  location_id: number;
  location_name: string;
  location_state: string;
}
interface Scanner {
  key: string;
  devices: Device[];
}

/** Finds or creates the agent's scanner user and generates its API key. */
async function scannerKey(admin: string, agentId: number) {
  const email = `scanner.agent${agentId}@devices.test`;
  const found = await call<{ items: { id: number; email: string }[] }>(
    'GET',
    `/api/user/users?per_page=10&q=${encodeURIComponent(email)}`,
    { token: admin },
  );
  let userId = found.items.find((u) => u.email === email)?.id;
  if (!userId) {
    const created = await call<{ data: { id: number } }>('POST', '/api/user/users', {
      token: admin,
      json: {
        first_name: 'Scanner',
        last_name: `Agent ${agentId}`,
        email,
        roles: ['Agent'],
        agents: [agentId],
        password: randomBytes(18).toString('base64url'),
      },
    });
    userId = created.data.id;
    console.log(`created scanner user ${email} (#${userId})`);
  }
  return (await call<{ data: { token: string } }>('GET', `/api/user/users/${userId}/apikey`, { token: admin })).data.token;
}

async function scanners(): Promise<Scanner[]> {
  const devicesOf = async (key: string) => (await call<{ data: Device[] }>('GET', '/api/scan/ingest/devices', { token: key })).data;
  if (args.key) return [{ key: args.key, devices: await devicesOf(args.key) }];
  const login = await call<{ data: { token: string } }>('POST', '/api/user/auth/login', {
    json: { email: args.email, password: args.password },
  });
  const admin = login.data.token;
  const agents =
    agentFilter ?? (await call<{ text: string; value: number }[]>('GET', '/api/agent/agents/lists', { token: admin })).map((a) => a.value);
  const out: Scanner[] = [];
  for (const agentId of agents) {
    const key = await scannerKey(admin, agentId);
    out.push({ key, devices: (await devicesOf(key)).filter((d) => d.agent_id === agentId) });
  }
  return out;
}

const form = (fields: Record<string, string | number | { data: Buffer; name: string; type: string }>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'object') f.append(k, new Blob([new Uint8Array(v.data)], { type: v.type }), v.name);
    else f.append(k, String(v));
  }
  return f;
};
const image = (data: Buffer, name: string) => ({ data, name, type: 'image/png' });

/** One scan, the way a scanner delivers it: announce, results, pictures, video, ready, uploaded. */
async function play(key: string, device: Device, scan: GeneratedScan, rng: ReturnType<typeof createRng>) {
  const v = scan.vehicle;
  const created = await call<{ data: { id: number } }>('POST', '/api/scan/ingest/scans', {
    token: key,
    json: {
      scan_id: scan.scan_id,
      device_id: device.id,
      type: scan.type,
      timestamp: scan.timestamp.toISOString(),
      startTime: scan.startTime.toISOString(),
      licensePlate: v.licensePlate,
      make: v.make,
      model: v.model,
      carColor: v.carColor,
      body_type: v.body_type,
      valuation: v.valuation,
      location_state: v.location_state,
    },
  });
  const id = created.data.id;
  const path = `/api/scan/ingest/scans/${id}`;
  await sleep(phaseDelay);
  await call('PUT', `${path}/results`, { token: key, json: { [scan.type]: scan.summary, damages: scan.damages, tyres: scan.tyres } });
  const hex = colourHex(v.carColor);
  await call('POST', `${path}/images`, {
    token: key,
    form: form({ kind: 'thumbnail', file: image(await vehicleImage({ hex, bodyType: v.body_type }), 'thumb.png') }),
  });
  await call('POST', `${path}/images`, {
    token: key,
    form: form({ kind: 'src', file: image(await vehicleImage({ hex, bodyType: v.body_type, scale: 3 }), 'src.png') }),
  });
  for (const d of scan.damages) {
    await call('POST', `${path}/images`, {
      token: key,
      form: form({
        kind: 'damage',
        damage_id: d.id,
        file: image(await damageImage({ hex, type: d.type, level: d.level, rng }), `${d.id}.png`),
      }),
    });
  }
  for (const t of scan.tyres) {
    const slot = { row: t.row, direction: t.direction, position: t.position };
    await call('POST', `${path}/images`, {
      token: key,
      form: form({ kind: 'tyre_measurement', ...slot, file: image(await tyreChart(t.depths), 'chart.png') }),
    });
    await call('POST', `${path}/images`, {
      token: key,
      form: form({ kind: 'tyre_image', ...slot, file: image(await tyreImage(t.wear), 'tyre.png') }),
    });
  }
  if (scan.type === 'arch') {
    await call('POST', `${path}/videos`, {
      token: key,
      form: form({
        video_id: 'v-001',
        file: { data: sampleVideo(), name: 'scan.webm', type: 'video/webm' },
        thumbnail: image(await videoThumbnail(), 'video.png'),
      }),
    });
  }
  await call('POST', `${path}/status`, { token: key, json: { status: 'ready' } });
  await sleep(phaseDelay);
  await call('POST', `${path}/status`, { token: key, json: { status: 'uploaded' } });
  return id;
}

async function main() {
  const rng = createRng(args.seed ? Number(args.seed) : Date.now());
  const all = await scanners();
  const playing = all.flatMap((s) =>
    s.devices.filter((d) => !args.device || d.id === Number(args.device)).map((d) => ({ key: s.key, device: d })),
  );
  if (!playing.length) {
    console.error("No device to play: the API key's agents have no devices (or --agent / --device matched none).");
    process.exit(1);
  }
  console.log(
    `simulating ${playing.length} device(s) against ${base}: a scan every ${every / 1000}s${count ? `, ${count} scans` : ' until Ctrl-C'}`,
  );
  let stop = false;
  process.on('SIGINT', () => {
    stop = true;
  });
  for (let n = 1; !stop && (count === 0 || n <= count); n++) {
    const started = Date.now();
    const { key, device } = playing[(n - 1) % playing.length];
    const type: ScanType = device.type === 'arch' && rng.chance(0.15) ? 'chasis' : (device.type as ScanType);
    const scan = generateScan(rng, { type, state: device.location_state, prefix: device.serial });
    try {
      const id = await play(key, device, scan, rng);
      console.log(
        `#${n} ${device.location_name} (device ${device.serial}) ${scan.type} ${scan.vehicle.licensePlate} ${scan.vehicle.make} ${scan.vehicle.model}: scan ${id}, ` +
          `${scan.damages.length} detections, ${scan.tyres.length} tyre sides, uploaded in ${Date.now() - started} ms`,
      );
    } catch (e) {
      console.error(`#${n} failed: ${(e as Error).message}`);
      if (e instanceof HttpError && (e.status === 401 || e.status === 403)) process.exit(1);
    }
    const wait = every - (Date.now() - started);
    if (!stop && (count === 0 || n < count) && wait > 0) await sleep(wait);
  }
}

main().catch((e) => {
  console.error((e as Error).message);
  process.exit(1);
});
