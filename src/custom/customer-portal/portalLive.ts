import { API_URL } from '../../config';
import { echoOptions, parseBroadcastingConfig } from '../../realtime/options';
import { KIOSK_HEADER } from '../../dataProvider';
import type { PortalScan } from '../../domain/portal';
import { readKioskToken } from '../../session';

const apiBase = () => new URL(`${API_URL}/`, window.location.href);

/**
 * Follows `saved` on the agent's private portal channel (`private-agent.{id}.scans`), authorised with the kiosk token
 * (no sign-in, so its own connection, not the app's). `onRefused` runs when the server refuses the subscription (401:
 * enrol again). Returns the stop.
 */
export function followPortal(agentId: string, onSaved: (scan: PortalScan) => void, onRefused: (status?: number) => void): () => void {
  let stopped = false;
  let stop = () => {};
  void (async () => {
    const [{ default: Echo }, { default: Pusher }, config] = await Promise.all([
      import('laravel-echo'),
      import('pusher-js'),
      fetch(new URL('broadcasting/config', apiBase()), { headers: { Accept: 'application/json' } }).then(
        (r) => r.json() as Promise<unknown>,
      ),
    ]);
    const parsed = parseBroadcastingConfig(config);
    if (stopped || !parsed) return;
    const token = readKioskToken(agentId);
    // The kiosk token instead of a bearer token (there is no sign-in here).
    const { broadcaster, ...options } = { ...echoOptions(parsed, '', apiBase()), bearerToken: null };
    const headers: Record<string, string> = token ? { [KIOSK_HEADER]: token } : {};
    const auth = { headers };
    const echo =
      broadcaster === 'pusher'
        ? new Echo({ ...options, broadcaster, Pusher, withoutInterceptors: true, auth })
        : new Echo({ ...options, broadcaster, Pusher, withoutInterceptors: true, auth });
    const name = `agent.${agentId}.scans`;
    echo
      .private(name)
      .listen('.saved', (scan: PortalScan) => onSaved(scan))
      .error((e: unknown) => onRefused((e as { status?: number } | null)?.status));
    // Closing the connection ends the subscription; leaving first would send its unsubscribe after the close.
    stop = () => echo.disconnect();
  })().catch((e: unknown) => console.error('The portal live channel failed', e));
  return () => {
    stopped = true;
    stop();
  };
}
