import { API_URL } from '../config';
import { STORAGE_KEYS, getCurrentUser, watchStored } from '../session';
import { createRealtime, type EchoFactory, type EchoLike } from './manager';

/** laravel-echo and pusher-js load with the first live screen, never with the sign-in page. */
async function loadEcho(): Promise<EchoFactory> {
  const [{ default: Echo }, { default: Pusher }] = await Promise.all([import('laravel-echo'), import('pusher-js')]);
  return ({ broadcaster, ...options }): EchoLike => {
    // Hosted Pusher is addressed by cluster; the embedded endpoint, soketi and Reverb by host and port.
    const echo =
      broadcaster === 'pusher'
        ? new Echo({ ...options, broadcaster, Pusher, withoutInterceptors: true })
        : new Echo({ ...options, broadcaster, Pusher, withoutInterceptors: true });
    return {
      private: (name) => echo.private(name),
      leaveChannel: (name) => echo.leaveChannel(name),
      disconnect: () => echo.disconnect(),
      onStateChange: (callback) =>
        (echo.connector as unknown as { pusher: InstanceType<typeof Pusher> }).pusher.connection.bind('state_change', callback),
    };
  };
}

const apiBase = () => new URL(`${API_URL}/`, window.location.href);

async function fetchJson(path: string, token: string): Promise<unknown> {
  const response = await fetch(new URL(path, apiBase()), { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
  return response.json();
}

/** The app's one live connection (see manager.ts). */
export const realtime = createRealtime({
  loadEcho,
  fetchJson,
  getToken: () => getCurrentUser()?.token ?? null,
  watchToken: (onChange) => watchStored(STORAGE_KEYS.currentUser, onChange),
  apiBase,
});

/** POST on the API with the signed-in user's token (the editing presence); a failure is only logged. */
export async function postJson(path: string, body: object): Promise<void> {
  const token = getCurrentUser()?.token;
  if (!token) return;
  try {
    await fetch(new URL(path, apiBase()), {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
      // A "gone" sent as the page closes still leaves.
      keepalive: true,
    });
  } catch (error) {
    console.error('Presence not sent', error);
  }
}
