import type { Executor } from '../db/database';
import type { Signer } from './signing';

/** a kiosk token lasts 30 days, and a new pincode voids it. */
export const KIOSK_TOKEN_DAYS = 30;
/** The header the portal sends its kiosk token in (also accepted by POST /api/broadcasting/auth). */
export const KIOSK_HEADER = 'x-kiosk-token';
/** The 401 of a portal call without a valid kiosk token: the portal asks for the pincode again. */
export const KIOSK_REQUIRED = 'Kiosk not enrolled: enter the pincode';

const PURPOSE = 'kiosk';
const TOKEN = /^([1-9]\d{0,14})\.([1-9]\d{0,9})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** `<agentId>.<pincodeVersion>.<expires, unix seconds>.<HMAC>`: nothing stored, voided by the agent's next pincode version. */
export function issueKioskToken(signer: Signer, agentId: number, pincodeVersion: number, now = Date.now()) {
  const expires = Math.floor(now / 1000) + KIOSK_TOKEN_DAYS * 24 * 3600;
  const text = `${agentId}.${pincodeVersion}.${expires}`;
  return { token: `${text}.${signer.sign(PURPOSE, text)}`, expiresAt: new Date(expires * 1000) };
}

/** Does this token open this agent's portal now (right agent, current pincode, not expired, signed by us)? */
export function kioskTokenValid(signer: Signer, token: unknown, agent: { id: number; pincode_version: number }, now = Date.now()): boolean {
  if (typeof token !== 'string') return false;
  const m = TOKEN.exec(token);
  if (!m) return false;
  const [, agentId, version, expires, signature] = m;
  if (Number(agentId) !== agent.id || Number(version) !== agent.pincode_version || Number(expires) * 1000 <= now) return false;
  return signer.verify(PURPOSE, `${agentId}.${version}.${expires}`, signature);
}

/** The portal's state for an agent: null when there is no portal (no such agent, or not enabled). */
export async function findPortalAgent(db: Executor, agentId: number) {
  return (
    (await db
      .selectFrom('agents')
      .select(['id', 'portal_mode', 'pincode_version'])
      .where('id', '=', agentId)
      .where('is_enabled', '=', 1)
      .executeTakeFirst()) ?? null
  );
}

/**
 * May a browser holding `token` (maybe none) use this agent's portal? 'closed': no portal (404); 'enrol': the agent's
 * portal is enrolled and the token does not open it (401); 'ok'.
 */
export async function portalAccess(db: Executor, signer: Signer, agentId: number, token: unknown): Promise<'ok' | 'enrol' | 'closed'> {
  const agent = await findPortalAgent(db, agentId);
  if (!agent) return 'closed';
  if (agent.portal_mode === 'open') return 'ok';
  return kioskTokenValid(signer, token, agent) ? 'ok' : 'enrol';
}
