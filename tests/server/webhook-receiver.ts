import http from 'node:http';
import type net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A webhook receiver that fails half the time (500) and counts, per `webhook-id`, the deliveries it accepted (2xx):
 * the cluster's promise "each at least once, none twice". Used by tests/server/cluster-workers.test.ts and `npm run test:cluster`.
 */
export function flakyReceiver(delayMs = 0) {
  const accepted = new Map<string, number>();
  let requests = 0;
  // While held, no request is answered: each sender keeps its connection open, so a test can see who is sending.
  let held: Promise<void> | null = null;
  let release = () => {};
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      const id = String(req.headers['webhook-id']);
      const answer = () => {
        if (Math.random() < 0.5) return res.writeHead(500).end();
        // Only an answer that can still reach the sender counts as accepted.
        if (req.socket.destroyed) return;
        accepted.set(id, (accepted.get(id) ?? 0) + 1);
        res.writeHead(200).end();
      };
      void (held ?? Promise.resolve()).then(() => setTimeout(answer, delayMs));
    });
  });
  return {
    server,
    accepted,
    requests: () => requests,
    hold() {
      held ??= new Promise<void>((r) => (release = r));
    },
    release() {
      release();
      held = null;
    },
  };
}

export const listen = (server: net.Server, port = 0) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });

export const close = (server: net.Server) =>
  new Promise<void>((r) => {
    server.close(() => r());
    (server as http.Server).closeAllConnections?.();
  });
