import { useEffect, useState } from 'react';
import type { PresenceEvent } from '../domain/versions';
import { getCurrentUser } from '../session';
import { postJson, realtime } from './instance';

/** How often an open editor says it is here, and how long after its last word it counts as gone. */
export const PRESENCE_HEARTBEAT_MS = 1500;
export const PRESENCE_EXPIRY_MS = 4500;

const isPresence = (data: unknown): data is PresenceEvent =>
  typeof data === 'object' && data !== null && 'user' in data && 'record' in data && 'state' in data;

/**
 * Who else has this scan (or its quote) open for editing, live: the page says `here` on the scan's
 * `private-editing.{scanId}` channel every PRESENCE_HEARTBEAT_MS (at once when someone new arrives) and `gone` when
 * it closes; another editor not heard for PRESENCE_EXPIRY_MS has left. Returns their names, the user's own excluded.
 */
export function usePresence(record: PresenceEvent['record'], scanId: number | null, enabled: boolean): string[] {
  const [others, setOthers] = useState<Record<number, { name: string; seen: number }>>({});
  useEffect(() => {
    if (!enabled || scanId === null) return;
    const me = getCurrentUser()?.id;
    const say = (state: PresenceEvent['state']) => void postJson('broadcasting/presence', { scan_id: scanId, record, state });
    const stop = realtime.listen(`private-editing.${scanId}`, 'presence', (data) => {
      if (!isPresence(data) || data.record !== record || data.user.id === me) return;
      setOthers((now) => {
        const next = { ...now };
        if (data.state === 'gone') delete next[data.user.id];
        else {
          // A newcomer hears about us at once rather than at our next heartbeat.
          if (!now[data.user.id]) say('here');
          next[data.user.id] = { name: data.user.name, seen: Date.now() };
        }
        return next;
      });
    });
    say('here');
    const beat = setInterval(() => {
      say('here');
      setOthers((now) => {
        const alive = Object.entries(now).filter(([, o]) => Date.now() - o.seen < PRESENCE_EXPIRY_MS);
        return alive.length === Object.keys(now).length ? now : Object.fromEntries(alive);
      });
    }, PRESENCE_HEARTBEAT_MS);
    const leave = () => say('gone');
    window.addEventListener('pagehide', leave);
    return () => {
      clearInterval(beat);
      window.removeEventListener('pagehide', leave);
      stop();
      leave();
      setOthers({});
    };
  }, [record, scanId, enabled]);
  return Object.values(others)
    .map((o) => o.name)
    .sort();
}
