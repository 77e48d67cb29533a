import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helper';
import { pngImage } from './image-fixtures';

const MB = 1024 * 1024;
/**
 * Buffering a refused body would hold the event loop for seconds. While a refused upload streams, the health check's
 * median answer stays under HEALTH_MS (the service's promise) and its 90th percentile under HEALTH_P90_MS: on a
 * loaded two-core machine the scheduler alone delays some answers by tens of milliseconds.
 */
const HEALTH_MS = 50;
const HEALTH_P90_MS = 250;
let t: TestContext;
let token: string;
let scanId: number;
let port: number;

/**
 * Sends a multipart body from a child process (the server's event loop is what is measured, not the sender's), made
 * as it is sent from one buffer written again and again: `fields` text parts of `fieldBytes` each, then one file part
 * of `fileBytes` (a small PNG first). Chunked unless `contentLength` is given; `hold` keeps the body open at its end.
 * Resolves with the reply, which may come before the body is all sent (the sender then stops).
 */
const SENDER = `
const http = require('node:http');
const o = JSON.parse(process.argv[1]);
const B = '----scanquote-limits';
const req = http.request({ host: '127.0.0.1', port: o.port, method: 'POST', path: o.url, agent: false, headers: {
  authorization: 'Bearer ' + o.token, 'content-type': 'multipart/form-data; boundary=' + B,
  ...(o.contentLength ? { 'content-length': String(o.contentLength) } : {}) } });
const quit = (line) => { process.stdout.write(JSON.stringify(line)); process.exit(0); };
req.on('response', (res) => { let body = ''; res.setEncoding('utf8'); res.on('data', (d) => (body += d));
  res.on('end', () => quit({ status: res.statusCode, body })); res.on('error', () => quit({ status: res.statusCode, body })); });
req.on('error', (e) => quit({ status: 0, body: e.message }));
const MB = 1024 * 1024;
const filler = Buffer.alloc(Math.max(o.fieldBytes, MB), 'a');
const pieces = function* () {
  for (let i = 0; i < o.fields; i++) {
    yield '--' + B + '\\r\\nContent-Disposition: form-data; name="note' + i + '"\\r\\n\\r\\n';
    yield filler.subarray(0, o.fieldBytes);
    yield '\\r\\n';
  }
  yield '--' + B + '\\r\\nContent-Disposition: form-data; name="file"; filename="f.png"\\r\\nContent-Type: image/png\\r\\n\\r\\n';
  yield Buffer.from(o.png, 'base64');
  for (let sent = 0; sent < o.fileBytes; sent += MB) yield filler.subarray(0, Math.min(MB, o.fileBytes - sent));
  if (!o.hold) yield '\\r\\n--' + B + '--\\r\\n';
}();
const pump = () => {
  for (let p = pieces.next(); !p.done; p = pieces.next()) if (!req.write(p.value)) return void req.once('drain', pump);
  if (!o.hold) req.end();
};
pump();
setTimeout(() => quit({ status: -1, body: 'no reply within 20 s' }), 20000);
`;

interface Body {
  fields?: number;
  fieldBytes?: number;
  fileBytes?: number;
  contentLength?: number;
  hold?: boolean;
}

async function send(url: string, body: Body): Promise<{ status: number; body: string }> {
  const o = { fields: 0, fieldBytes: 0, fileBytes: 0, ...body, port, url, token, png: (await pngImage()).toString('base64') };
  const child = spawn(process.execPath, ['-e', SENDER, JSON.stringify(o)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((resolve) => child.on('exit', resolve));
  return JSON.parse(out) as { status: number; body: string };
}

/**
 * Asks /api/health every 10 ms until `until` settles (at most 500 times); the median and 90th percentile of the
 * answers' milliseconds. Not the slowest: the machine's cores are shared, and one late answer is then the scheduler's.
 */
async function healthTimes(until: Promise<unknown>) {
  let finished = false;
  void until.finally(() => (finished = true));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  for (let i = 0; i < 500 && (!finished || times.length < 10); i++) {
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/api/health', agent }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        })
        .on('error', reject);
    });
    times.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 10));
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length * 0.5)], p90: times[Math.floor(times.length * 0.9)] };
}

function expectHealthy(health: { median: number; p90: number }) {
  expect(health.median).toBeLessThan(HEALTH_MS);
  expect(health.p90).toBeLessThan(HEALTH_P90_MS);
}

const storedFiles = () => {
  const dir = path.join(t.configEnv.DATA_DIR, 'files');
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).length : 0;
};
const annotates = async () => (await t.db.selectFrom('scan_annotates').select('id').where('scan_id', '=', scanId).execute()).length;

beforeAll(async () => {
  // /api/health is asked every 10 ms.
  t = await createTestContext({ RATE_LIMIT_PER_MINUTE: '100000', LOG_LEVEL: 'error' }, undefined, {
    write: (l) => void process.stderr.write(l),
  });
  const client = await t.build.client();
  const agent = await t.build.agent({ default_client_id: client.id });
  scanId = (await t.build.scan({ agent_id: agent.id, client_id: client.id })).id;
  token = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
  // The first answers of a new server are slower (code compiled on first use): not what is measured.
  await healthTimes(new Promise((r) => setTimeout(r, 300)));
});

describe('multipart limits', () => {
  it('refuses ~190 MB of text parts with 413 as it streams, stores nothing, and /api/health keeps answering (median under 50 ms)', async () => {
    const sending = send(`/api/scan/scans/${scanId}/annotates`, { fields: 190, fieldBytes: 1_000_000 });
    const health = await healthTimes(sending);
    const reply = await sending;
    expect(reply.status, reply.body).toBe(413);
    expect(JSON.parse(reply.body).error).toMatch(/too large/);
    expectHealthy(health);
    expect(await annotates()).toBe(0);
    expect(storedFiles()).toBe(0);
  });

  it('refuses a 200 MB file part with 413 before reading it all', async () => {
    const sending = send(`/api/scan/scans/${scanId}/annotates`, { fileBytes: 200 * MB });
    const health = await healthTimes(sending);
    const reply = await sending;
    expect(reply.status, reply.body).toBe(413);
    expectHealthy(health);
    expect(await annotates()).toBe(0);
    expect(storedFiles()).toBe(0);
  });

  it('lets a client that asked to close the connection read the 413 while it still sends: no reset', async () => {
    // Connection: close makes Node close the socket once the reply is written; a close with body bytes still
    // arriving is a TCP reset, which can overtake the reply. Every write of the 80 MB body must succeed.
    const B = '----scanquote-linger';
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let reply = '';
    let failure: Error | undefined;
    socket.on('data', (d: Buffer) => (reply += d.toString()));
    socket.on('error', (e) => (failure = e));
    // A write waits for the socket to drain, or for it to close (then `failure` says why).
    const write = (chunk: string | Buffer) =>
      new Promise<void>((resolve) => {
        if (socket.destroyed || socket.write(chunk)) return resolve();
        socket.once('drain', resolve);
        socket.once('close', resolve);
      });
    await write(
      `POST /api/scan/scans/${scanId}/annotates HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${B}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const chunk = (data: string | Buffer) =>
      write(Buffer.concat([Buffer.from(`${Buffer.byteLength(data).toString(16)}\r\n`), Buffer.from(data), Buffer.from('\r\n')]));
    await chunk(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="f.png"\r\nContent-Type: image/png\r\n\r\n`);
    await chunk(await pngImage());
    const filler = Buffer.alloc(MB, 'a');
    for (let i = 0; i < 80 && !failure; i++) await chunk(filler);
    await chunk(`\r\n--${B}--\r\n`);
    await write('0\r\n\r\n');
    await new Promise((resolve) => (socket.closed ? resolve(null) : socket.once('close', resolve)));
    expect(failure?.message).toBeUndefined();
    expect(reply).toMatch(/^HTTP\/1.1 413 /);
    expect(await annotates()).toBe(0);
  });

  it('refuses a declared Content-Length over the limit before reading the body', async () => {
    // The body is held open after its first megabyte: the reply cannot wait for the rest.
    const reply = await send(`/api/scan/scans/${scanId}/annotates`, { fileBytes: MB, contentLength: 200 * MB, hold: true });
    expect(reply.status, reply.body).toBe(413);
    expect(await annotates()).toBe(0);
  });

  it("refuses a file passing the agent's upload quota while it streams (the rest is never waited for)", async () => {
    const row = await t.db.selectFrom('options').select('id').where('option_name', '=', 'UPLOAD_QUOTA_MB').executeTakeFirstOrThrow();
    await t.db.updateTable('options').set({ option_value: '1' }).where('id', '=', row.id).execute();
    try {
      const reply = await send(`/api/scan/scans/${scanId}/annotates`, { fileBytes: 2 * MB, hold: true });
      expect(reply.status, reply.body).toBe(422);
      expect(JSON.parse(reply.body).error.file).toMatch(/quota|upload/i);
      expect(await annotates()).toBe(0);
    } finally {
      await t.db.updateTable('options').set({ option_value: '500' }).where('id', '=', row.id).execute();
    }
  });

  it('still takes an image under the limits', async () => {
    const reply = await send(`/api/scan/scans/${scanId}/annotates`, {});
    expect(reply.status, reply.body).toBe(201);
    expect(await annotates()).toBe(1);
  });
});
