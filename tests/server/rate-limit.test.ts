import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helper';

/** The general limit and a route's own limit follow the route the router matched, however the URL is spelled. */
let t: TestContext;
let port: number;
beforeAll(async () => {
  t = await createTestContext({ RATE_LIMIT_PER_MINUTE: '5' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  port = address.port;
});

/** One request written byte for byte on its own connection (an absolute-form target is sent as it is); the status code. */
function rawRequest(requestLine: string, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.setTimeout(5000, () => socket.destroy(new Error(`no answer to ${requestLine}`)));
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(received);
      if (m) {
        socket.destroy();
        resolve(Number(m[1]));
      }
    });
    socket.on('error', reject);
    const headers = [`${requestLine} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close'];
    if (body !== undefined) headers.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
    socket.write(`${headers.join('\r\n')}\r\n\r\n${body ?? ''}`);
  });
}

describe('rate limits on the matched route', () => {
  it('counts a percent-encoded path against the general limit', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await t.app.inject({ method: 'GET', url: '/%61pi/health', remoteAddress: '10.31.0.1' })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('counts a percent-encoded path against the forgot-password limit', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: i % 2 ? '/%61pi/user/auth/forgot-password' : '/api/user/auth/%66orgot-password',
        payload: { email: 'victim@example.test' },
        remoteAddress: '10.31.0.2',
      });
      statuses.push(res.statusCode);
    }
    await t.settled();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('counts an absolute-form request target against the general and the forgot-password limits', async () => {
    // Sent over a socket from 127.0.0.1: each test of this file keeps to its own address or its own route.
    const health = [];
    for (let i = 0; i < 6; i++) health.push(await rawRequest(`GET http://127.0.0.1:${port}/api/health`));
    expect(health).toEqual([200, 200, 200, 200, 200, 429]);

    const body = JSON.stringify({ email: 'victim@example.test' });
    const forgot = [];
    for (let i = 0; i < 6; i++) forgot.push(await rawRequest(`POST http://example.test/api/user/auth/forgot-password`, body));
    await t.settled();
    expect(forgot).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('leaves files outside the API unlimited', async () => {
    const statuses = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await t.app.inject({ method: 'GET', url: '/no-such-page', remoteAddress: '10.31.0.3' })).statusCode);
    expect(statuses.every((s) => s !== 429)).toBe(true);
  });
});
