import { WebSocket } from 'ws';
import { messageText } from '../server/realtime/embedded';

/**
 * The browsers of `benchRealtime`, in a process of their own (as real browsers are elsewhere):
 * opens Pusher-protocol connections, authorises and subscribes each to private-scan, and records
 * when every `created` event arrives. Driven by messages from bench/realtime.ts.
 */
export type ClientPlan = { wsUrl: string; authUrl: string; tokens: string[] };
export type ToClients = { type: 'start'; plan: ClientPlan } | { type: 'collect' } | { type: 'close' };
/** [connection index, licensePlate, received at (performance.timeOrigin + now, ms)] */
export type Sample = [number, string, number];
export type FromClients = { type: 'ready'; connected: number } | { type: 'samples'; samples: Sample[] } | { type: 'failed'; error: string };

const now = () => performance.timeOrigin + performance.now();
const send = (m: FromClients) => process.send!(m);
const sockets: WebSocket[] = [];
const samples: Sample[] = [];

function open(index: number, plan: ClientPlan): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(plan.wsUrl);
    sockets.push(ws);
    const timer = setTimeout(() => reject(new Error(`connection ${index} did not subscribe`)), 20000);
    ws.on('error', reject);
    ws.on('message', (buf) => {
      const at = now();
      const m = JSON.parse(messageText(buf)) as { event: string; channel?: string; data: string };
      if (m.event === 'created') {
        samples.push([index, (JSON.parse(m.data) as { licensePlate: string }).licensePlate, at]);
      } else if (m.event === 'pusher:connection_established') {
        const socketId = (JSON.parse(m.data) as { socket_id: string }).socket_id;
        fetch(plan.authUrl, {
          method: 'POST',
          headers: { authorization: `Bearer ${plan.tokens[index]}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ socket_id: socketId, channel_name: 'private-scan' }).toString(),
        })
          .then(async (res) => {
            if (!res.ok) throw new Error(`auth ${res.status}`);
            const { auth, channel_data } = (await res.json()) as { auth: string; channel_data?: string };
            ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel: 'private-scan', auth, channel_data } }));
          })
          .catch(reject);
      } else if (m.event === 'pusher_internal:subscription_succeeded') {
        clearTimeout(timer);
        resolve();
      } else if (m.event === 'pusher:subscription_error' || m.event === 'pusher:error') {
        reject(new Error(`connection ${index}: ${m.event} ${m.data}`));
      }
    });
  });
}

process.on('message', (m: ToClients) => {
  if (m.type === 'start') {
    void (async () => {
      try {
        // A few dozen at a time, like browsers arriving, not one thundering herd.
        for (let i = 0; i < m.plan.tokens.length; i += 50) {
          await Promise.all(m.plan.tokens.slice(i, i + 50).map((_, j) => open(i + j, m.plan)));
        }
        send({ type: 'ready', connected: sockets.length });
      } catch (e) {
        send({ type: 'failed', error: (e as Error).message });
      }
    })();
  } else if (m.type === 'collect') {
    send({ type: 'samples', samples: samples.splice(0) });
  } else {
    for (const ws of sockets) ws.terminate();
    process.exit(0);
  }
});
