import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { createTestContext, PASSWORD, type TestContext } from './helper';

/** Graceful shutdown of the real server process, readiness while draining, JSON logs with request ids. */
const KEY = 'shutdown-app-key';
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});

const freePort = async () => {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function get(port: number, url: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: url, agent: false }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('graceful shutdown of server/server.ts on SIGTERM', () => {
  let child: ChildProcess | null = null;
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('turns /api/ready 503, finishes the request under way, closes sockets with 4200, logs JSON with request ids, exits 0', async () => {
    const user = await t.build.user({ roles: ['Super Admin'] });
    const port = await freePort();
    const lines: string[] = [];
    child = spawn(process.execPath, ['--import', 'tsx', path.resolve(__dirname, '../../server/server.ts')], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: t.url,
        HOST: '127.0.0.1',
        PORT: String(port),
        STATIC_DIR: 'does-not-exist',
        LOG_LEVEL: 'info',
        SHUTDOWN_DRAIN_SECONDS: '1.5',
        REALTIME_APP_KEY: KEY,
        REALTIME_APP_SECRET: 'shutdown-app-secret-0123456789',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const parts = out.split('\n');
      out = parts.pop()!;
      lines.push(...parts);
    });
    child.stderr!.on('data', (c: Buffer) => lines.push(c.toString('utf8')));
    const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
    const until = Date.now() + 60_000;
    for (;;) {
      const ready = await get(port, '/api/ready').catch(() => null);
      if (ready?.status === 200) break;
      if (Date.now() > until) throw new Error(`server did not start:\n${lines.join('\n')}`);
      await sleep(200);
    }

    // A WebSocket client, and a sign-in whose body is still arriving when SIGTERM comes.
    const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${KEY}?protocol=7`);
    await new Promise((r) => ws.once('message', r));
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    const body = JSON.stringify({ email: user.email, password: PASSWORD });
    const reply = new Promise<{ status: number; body: string; id: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/user/auth/login',
          method: 'POST',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-request-id': 'cluster-test-0001' },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, id: String(res.headers['x-request-id']) }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      void sleep(1200).then(() => req.end(body.slice(10)));
    });
    await sleep(200);
    child.kill('SIGTERM');
    await sleep(300);
    expect(await get(port, '/api/ready')).toEqual({ status: 503, body: JSON.stringify({ error: 'Shutting down' }) });
    // Still serving while draining.
    expect((await get(port, '/api/health')).status).toBe(200);

    const login = await reply;
    expect(login.status, login.body).toBe(200);
    expect(JSON.parse(login.body).data.token).toEqual(expect.any(String));
    expect(login.id).toBe('cluster-test-0001');
    expect(await closed).toBe(4200);
    expect(await exited).toBe(0);

    const json = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    const ofLogin = json.filter((l) => l.reqId === 'cluster-test-0001');
    expect(ofLogin.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    expect(json.some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM')).toBe(true);
    expect(json.at(-1)?.msg).toBe('stopped');
  }, 90_000);
});

describe('structured logs', () => {
  it('puts the request id on the lines a request writes: its own logger, and background work it starts', async () => {
    const lines: Record<string, unknown>[] = [];
    const config = loadConfig({ ...t.configEnv, LOG_LEVEL: 'info' });
    const app = await buildApp({ config, db: t.db, storage: t.app.storage, logStream: { write: (l) => lines.push(JSON.parse(l)) } });
    app.get('/api/test-log', { config: { access: 'public' } }, async (req) => {
      req.log.info('written by request.log');
      await sleep(5);
      req.log.warn('after an await');
      app.background.run('a failing task', () => Promise.reject(new Error('boom')), req.log);
      return { ok: true };
    });
    await app.ready();
    try {
      const res = await app.inject({ method: 'GET', url: '/api/test-log' });
      await app.background.settled();
      const id = res.headers['x-request-id'];
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const mine = lines.filter((l) => l.reqId === id).map((l) => l.msg);
      expect(mine).toEqual(
        expect.arrayContaining([
          'incoming request',
          'written by request.log',
          'after an await',
          'request completed',
          'a failing task failed',
        ]),
      );
      expect(mine).toHaveLength(5);
      // A forged id that is not one is replaced.
      const forged = await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'bad id\n{}' } });
      expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await app.close();
    }
  });
});
