import { sql } from 'kysely';
import type { Executor } from '../db/database';
import { TooManyRequestsError } from '../errors';

export interface ThrottleRule {
  /** Which counter: 'login', 'pin', 'profile-password', ... (keys of different buckets never meet). */
  bucket: string;
  /** Attempts allowed per key within the window; the next ones are refused with 429 until it passes. */
  max: number;
  windowSeconds: number;
  /** The 429 text, given the seconds until the window passes. */
  message: (retryAfterSeconds: number) => string;
}

/**
 * Failed-attempt limits (login, the portal pin, the profile's current password), done once. An attempt is counted
 * *before* it is checked, in one statement (`insert ... on conflict do update ... returning`), and refused when the
 * count passes `max`: twenty parallel wrong attempts get at most `max` checks, the rest 429. A success calls
 * `clear`, so only failures stay counted. The window is fixed, from the key's first attempt.
 */
export function attemptThrottle(db: Executor, rule: ThrottleRule) {
  const window = sql`make_interval(secs => ${rule.windowSeconds})`;
  return {
    /** Counts one attempt for `key`; throws 429 (with Retry-After) when the key has used up its attempts. */
    async claim(key: string) {
      const r = await sql<{ attempts: number; window_start: Date }>`
        insert into auth_throttles (bucket, throttle_key, attempts, window_start) values (${rule.bucket}, ${key}, 1, now())
        on conflict (bucket, throttle_key) do update set
          attempts = case when auth_throttles.window_start <= now() - ${window} then 1 else auth_throttles.attempts + 1 end,
          window_start = case when auth_throttles.window_start <= now() - ${window} then now() else auth_throttles.window_start end
        returning attempts, window_start`.execute(db);
      const { attempts, window_start } = r.rows[0];
      // A new window: drop the bucket's expired rows, so the table holds only live counters.
      if (attempts === 1)
        await sql`delete from auth_throttles where bucket = ${rule.bucket} and window_start <= now() - ${window}`.execute(db);
      if (attempts > rule.max) {
        const retry = Math.max(1, Math.ceil((new Date(window_start).getTime() + rule.windowSeconds * 1000 - Date.now()) / 1000));
        throw new TooManyRequestsError(rule.message(retry), retry);
      }
    },
    /** The attempt just claimed was no failure (a valid link): it stops counting, earlier failures still do. */
    async forgive(key: string) {
      await sql`update auth_throttles set attempts = greatest(attempts - 1, 0)
        where bucket = ${rule.bucket} and throttle_key = ${key}`.execute(db);
    },
    /** The attempt succeeded: the key's earlier failures stop counting. */
    async clear(key: string) {
      await sql`delete from auth_throttles where bucket = ${rule.bucket} and throttle_key = ${key}`.execute(db);
    },
  };
}
