/**
 * `npm run cluster`: the product as a cluster on this machine (docs/deploy.md): Debian's PostgreSQL as the
 * external database, s3rver as the S3-compatible storage, two app instances started at the same moment, and HAProxy
 * in front (WebSockets included) on one origin. Ctrl-C stops everything. `scripts/test-cluster.ts` drives the same.
 *
 * Ports: CLUSTER_PORT (the load balancer, default 4202), the instances on the next two, s3rver on the one after,
 * PostgreSQL on CLUSTER_PG_PORT (default 55202). State under CLUSTER_DIR (default .tmp/cluster), new at each start.
 *
 * The instances run `server/server.ts` bundled by esbuild (our code in one file, every npm package still loaded from
 * node_modules as `npm start` loads it): the same code, started in about a third of the time tsx's loader takes,
 * which the test's 100 kill/restart cycles need.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import S3rver from 's3rver';
import { createDatabase } from '../server/db/database';
import { NODE_RUNTIME_FLAGS } from '../server/runtime';
import { seedDemo } from '../server/seed/demo';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KEY = 'cluster-app-key';
const SECRET = 'cluster-app-secret-0123456789abcdef';

export interface Cluster {
  url: string;
  databaseUrl: string;
  /** The first port after the cluster's own (load balancer, two instances, s3rver): free for a test's helpers. */
  sparePort: number;
  instances: Instance[];
  /**
   * Starts instance i again (after a kill); resolves once it answers /api/ready and the load balancer sends to it
   * again, with the milliseconds each took from the start.
   */
  restart(i: number): Promise<{ readyMs: number; balancedMs: number }>;
  /** Whether the load balancer's health check has instance i in service. */
  balanced(i: number): Promise<boolean>;
  stop(): Promise<void>;
}
export interface Instance {
  port: number;
  url: string;
  process: ChildProcess;
  /** Every line the instance wrote (JSON logs, start-up lines). */
  lines: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const hasCommand = (name: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
};

/** The Debian packages the cluster needs that are not installed (startCluster installs them; the bench only says so). */
export function missingPackages() {
  return [pgBin() === null ? 'postgresql' : null, hasCommand('haproxy') ? null : 'haproxy'].filter((p): p is string => p !== null);
}

/** Installs a Debian package when it is missing (as scripts/test-all.sh does for chromium). */
function ensurePackage(present: () => boolean, pkg: string) {
  if (present()) return;
  console.log(`Installing Debian's ${pkg}...`);
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  execFileSync(
    'sh',
    ['-c', `${sudo}apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${sudo}apt-get install -y -qq ${pkg} >/dev/null`],
    {
      stdio: 'inherit',
    },
  );
}

function pgBin() {
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'pg_ctl'))) : [];
  if (!versions.length) return null;
  return path.join(base, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

/** PostgreSQL refuses to run as root: as root, its files belong to and it runs as the `postgres` user. */
function asPostgres(cmd: string, args: string[]) {
  if (process.getuid?.() !== 0) return { cmd, args };
  return { cmd: 'runuser', args: ['-u', 'postgres', '--', cmd, ...args] };
}

async function startPostgres(dir: string, port: number) {
  ensurePackage(() => pgBin() !== null, 'postgresql');
  const bin = pgBin();
  if (!bin) throw new Error('Debian postgresql is not installed');
  const data = path.join(dir, 'pg');
  fs.mkdirSync(data, { recursive: true });
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const run = (c: string, args: string[]) => {
    const x = asPostgres(path.join(bin, c), args);
    execFileSync(x.cmd, x.args, { stdio: 'pipe' });
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C']);
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    path.join(dir, 'pg.log'),
    '-o',
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c max_connections=200`,
    '-w',
    'start',
  ]);
  execFileSync(path.join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-c', 'create database scanquote'], {
    stdio: 'pipe',
  });
  return {
    url: `postgres://postgres@127.0.0.1:${port}/scanquote`,
    stop: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } catch {
        /* already down */
      }
    },
  };
}

/**
 * `server/server.ts` as one ES module. Our files keep their own `import.meta.url` (the migrations and the PDF font are
 * found beside them); npm packages stay external, except dayjs, whose extension-less locale imports only a bundler resolves.
 */
async function bundleServer(out: string) {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
  await build({
    entryPoints: [path.join(ROOT, 'server/server.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    external: Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((name) => name !== 'dayjs'),
    plugins: [
      {
        name: 'own-file-urls',
        setup(b) {
          b.onLoad({ filter: /\.tsx?$/ }, async (args) => ({
            contents: (await fs.promises.readFile(args.path, 'utf8')).replaceAll(
              'import.meta.url',
              JSON.stringify(pathToFileURL(args.path).href),
            ),
            loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts',
          }));
        },
      },
    ],
  });
}

/** One command on HAProxy's admin socket; resolves with its answer. */
function haproxyCommand(socket: string, command: string) {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const c = net.createConnection(socket, () => c.end(`${command}\n`));
    c.on('data', (d: Buffer) => (out += d.toString('utf8')));
    c.on('end', () => resolve(out));
    c.on('error', reject);
  });
}

function haproxyConfig(port: number, backends: number[], socket: string) {
  return `global
  maxconn 2000
  stats socket ${socket} mode 600 level admin
defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  option http-server-close
  retries 2
  option redispatch
frontend app
  bind 127.0.0.1:${port}
  unique-id-format %{+X}o\\ %ci:%cp_%fi:%fp_%Ts_%rt:%pid
  http-request set-header X-Request-Id %[unique-id] unless { req.hdr(x-request-id) -m found }
  default_backend instances
backend instances
  balance roundrobin
  option httpchk GET /api/ready
  http-check expect status 200
  default-server inter 1s fastinter 200ms downinter 200ms fall 1 rise 1
${backends.map((p, i) => `  server app${i + 1} 127.0.0.1:${p} check`).join('\n')}
`;
}

async function waitReady(url: string, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(`${url}/api/ready`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return;
    if (Date.now() > until) throw new Error(`${url} did not become ready`);
    await sleep(50);
  }
}

/** `env`: settings for every instance on top of the cluster's (a test shortens the webhook retry schedule). */
export async function startCluster(opts: { quiet?: boolean; env?: Record<string, string> } = {}): Promise<Cluster> {
  const lbPort = Number(process.env.CLUSTER_PORT ?? 4202);
  const pgPort = Number(process.env.CLUSTER_PG_PORT ?? 55202);
  const [portA, portB, s3Port] = [lbPort + 1, lbPort + 2, lbPort + 3];
  const dir = path.resolve(ROOT, process.env.CLUSTER_DIR ?? '.tmp/cluster');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  ensurePackage(() => hasCommand('haproxy'), 'haproxy');
  if (!fs.existsSync(path.join(ROOT, 'dist', 'index.html')))
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });

  const bundle = path.join(dir, 'server.mjs');
  await bundleServer(bundle);
  const pg = await startPostgres(dir, pgPort);
  const started: ChildProcess[] = [];
  try {
    return await startRest();
  } catch (e) {
    for (const p of started) p.kill('SIGKILL');
    pg.stop();
    throw e;
  }

  async function startRest(): Promise<Cluster> {
    const s3 = new S3rver({
      address: '127.0.0.1',
      port: s3Port,
      silent: true,
      directory: path.join(dir, 's3'),
      configureBuckets: [{ name: 'scan-files' }],
    });
    await s3.run();

    const env = {
      ...process.env,
      NODE_ENV: 'production',
      // The AWS SDK's notice about Node 20 support ending in 2027, once per instance start.
      NODE_NO_WARNINGS: '1',
      HOST: '127.0.0.1',
      DATABASE_URL: pg.url,
      APP_URL: `http://127.0.0.1:${lbPort}`,
      S3_BUCKET: 'scan-files',
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      REALTIME_APP_KEY: KEY,
      REALTIME_APP_SECRET: SECRET,
      REALTIME_BUS: 'postgres',
      RATE_LIMIT_STORE: 'postgres',
      RATE_LIMIT_PER_MINUTE: process.env.RATE_LIMIT_PER_MINUTE ?? '100000',
      // The test's hundreds of subscribers all come from this machine's one address.
      REALTIME_MAX_CONNECTIONS_PER_ADDRESS: process.env.REALTIME_MAX_CONNECTIONS_PER_ADDRESS ?? '2000',
      TRUST_PROXY: 'true',
      SHUTDOWN_DRAIN_SECONDS: '2',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      ...opts.env,
    };
    const spawnInstance = (port: number): Instance => {
      const child = spawn(process.execPath, [...NODE_RUNTIME_FLAGS, bundle], {
        cwd: ROOT,
        env: { ...env, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      started.push(child);
      const lines: string[] = [];
      for (const stream of [child.stdout, child.stderr])
        stream.on('data', (c: Buffer) => {
          for (const line of c.toString('utf8').split('\n').filter(Boolean)) {
            lines.push(line);
            if (!opts.quiet) console.log(`[${port}] ${line}`);
          }
        });
      return { port, url: `http://127.0.0.1:${port}`, process: child, lines };
    };
    // Both at the same moment, on the empty database: one migrates, the other waits on the lock.
    const instances = [spawnInstance(portA), spawnInstance(portB)];
    await Promise.all(instances.map((i) => waitReady(i.url)));

    const cfg = path.join(dir, 'haproxy.cfg');
    const socket = path.join(dir, 'haproxy.sock');
    fs.writeFileSync(cfg, haproxyConfig(lbPort, [portA, portB], socket));
    const haproxy = spawn('haproxy', ['-f', cfg, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(haproxy);
    haproxy.stderr.on('data', (c: Buffer) => {
      if (!opts.quiet) process.stderr.write(`[haproxy] ${c.toString('utf8')}`);
    });
    const url = `http://127.0.0.1:${lbPort}`;
    await waitReady(url);
    // Demo sign-ins and data, as `npm start` has (an external database is never seeded by the server itself).
    const db = createDatabase(pg.url, 2);
    await seedDemo(db, { onlyIfEmpty: true });
    await db.destroy();

    const exited = (p: ChildProcess) =>
      p.exitCode !== null || p.signalCode !== null ? Promise.resolve() : new Promise((r) => p.once('exit', r));
    const balanced = async (i: number) => {
      // `show stat` is CSV: a "# pxname,svname,...,status,..." header, then a line per proxy and server.
      const [header, ...rows] = (await haproxyCommand(socket, 'show stat')).trim().split('\n');
      const status = header.replace(/^# /, '').split(',').indexOf('status');
      return rows.some((r) => r.startsWith(`instances,app${i + 1},`) && r.split(',')[status] === 'UP');
    };
    return {
      url,
      databaseUrl: pg.url,
      sparePort: s3Port + 1,
      instances,
      balanced,
      async restart(i) {
        const old = instances[i];
        await exited(old.process);
        const started = performance.now();
        instances[i] = spawnInstance(old.port);
        await waitReady(instances[i].url, 60_000);
        const readyMs = performance.now() - started;
        const until = Date.now() + 10_000;
        while (!(await balanced(i))) {
          if (Date.now() > until) throw new Error(`the load balancer did not take instance ${i + 1} back`);
          await sleep(50);
        }
        return { readyMs, balancedMs: performance.now() - started };
      },
      async stop() {
        haproxy.kill('SIGTERM');
        for (const i of instances) i.process.kill('SIGTERM');
        await Promise.all([...instances.map((i) => exited(i.process)), exited(haproxy)]);
        await s3.close();
        pg.stop();
      },
    };
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cluster = await startCluster();
  console.log(
    `\nScanQuote cluster running at ${cluster.url}  (instances ${cluster.instances.map((i) => i.url).join(', ')}; database ${cluster.databaseUrl})`,
  );
  console.log('Demo sign-ins as with npm start (admin@demo.test / demo-password-1). Ctrl-C stops everything.');
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void cluster.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
