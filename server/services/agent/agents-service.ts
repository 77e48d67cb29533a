import { verify } from '@node-rs/argon2';
import { z } from 'zod';
import { PORTAL_MODES } from '../../../src/domain/agents';
import { dataScope } from '../../../src/domain/permissions';
import type { Database } from '../../db/database';
import { NotFoundError } from '../../errors';
import type { Caller } from '../../lib/caller';
import type { ResourcePart } from '../../lib/definitions';
import { findPortalAgent, issueKioskToken } from '../../lib/kiosk';
import { sanitizeRichText } from '../../lib/rich-text';
import type { Signer } from '../../lib/signing';
import { attemptThrottle } from '../../lib/throttle';
import { agentScope } from './scopes';
import { agentsSource, findBranding, findEnabledPincode, findPortalFace } from './agents-repository';

/** The record as it leaves the server: never the pincode or its hash, only whether one is set. */
export const AgentRecord = z.object({
  id: z.number(),
  name: z.string(),
  logo: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  address: z.string().nullable(),
  portal_email_address: z.string().nullable(),
  abn: z.string().nullable(),
  has_pincode: z.boolean(),
  is_enabled: z.number(),
  portal_mode: z.enum(PORTAL_MODES.map((m) => m.id)),
  default_client_id: z.number().nullable(),
  default_client_name: z.string().nullable(),
  primary_color: z.string(),
  text_color: z.string(),
  blurb: z.string().nullable(),
  language: z.string(),
  created_at: z.date(),
  updated_at: z.date(),
});

/**
 * Agents: created with multipart (`logoFile`), updated with `POST agents/{id}?_method=PUT`.
 * Calls with agents in their path ignore the X_SNG_* selection, so `agents/lists` is the header's agent selector.
 */
export const agentsPart: ResourcePart = {
  record: AgentRecord,
  from: agentsSource,
  scope: agentScope,
  reads: ['clients'],
  hooks: {
    // A kiosk's live subscription was signed for the old pincode and portal mode: reconnecting signs it anew, or not.
    async afterWrite(id, input, { revokeLive, current, mode }) {
      if (mode !== 'update' || !current) return;
      // Numbers and strings only here (portal_mode, is_enabled); 1 and '1' are the same.
      const changed = (field: string) =>
        input[field] !== undefined && `${input[field] as string | number}` !== `${current[field] as string | number}`;
      if ((typeof input.pincode === 'string' && input.pincode !== '') || changed('portal_mode') || changed('is_enabled'))
        revokeLive({ portals: [id] });
    },
    beforeDelete(row, { revokeLive }) {
      revokeLive({ portals: [Number(row.id)] });
    },
  },
};

/** at most 5 failed pin checks per 15 minutes per agent and client address. */
export const PIN_MAX_FAILURES = 5;
export const PIN_FAILURE_WINDOW_SECONDS = 15 * 60;

/** An agent's id as a path gives it: anything but digits names no agent (the model's 404). */
const agentId = (raw: string) => {
  if (!/^\d{1,15}$/.test(raw)) throw new NotFoundError('Agent', raw);
  return Number(raw);
};

/** The agents' service beyond their described routes: the header theme's branding and the customer portal. */
export function agentsService(deps: { db: Database; signer: Signer }) {
  const { db, signer } = deps;
  const pinThrottle = attemptThrottle(db, {
    bucket: 'pin',
    max: PIN_MAX_FAILURES,
    windowSeconds: PIN_FAILURE_WINDOW_SECONDS,
    message: (retry) => `Too many pincode attempts. Please try again in ${retry} seconds.`,
  });

  /**
   * The portal's pincode check, shared by validate-pin and enrol: only enabled agents (else the model's 404), at most
   * PIN_MAX_FAILURES checks per window per agent and client address (429; a success clears them), true when it matches.
   */
  async function checkPin(id: string, clientAddress: string, pin: string): Promise<boolean> {
    const agent = await findEnabledPincode(db, agentId(id));
    if (!agent) throw new NotFoundError('Agent', id);
    // Counted before the check, in one statement (server/lib/throttle.ts): parallel wrong pins cannot all be checked.
    const key = `${agent.id}|${clientAddress}`;
    await pinThrottle.claim(key);
    const ok = !!agent.pincode_hash && /^\d{6}$/.test(pin) && (await verify(agent.pincode_hash, pin).catch(() => false));
    if (!ok) return false;
    await pinThrottle.clear(key);
    return true;
  }

  return {
    /** An agent's colours and logo, for any agent the caller's own agents and clients reach (the selection aside). */
    async branding(caller: Pick<Caller, 'actor'>, id: string) {
      const row = await findBranding(db, agentId(id), dataScope(caller.actor));
      if (!row) throw new NotFoundError('Agent', id);
      return row;
    },
    checkPin,
    /** A kiosk token for the pincode (null when it does not match), void once the pincode changes. */
    async enrol(id: string, clientAddress: string, pincode: string) {
      if (!(await checkPin(id, clientAddress, pincode))) return null;
      // Read after the check: the version the pincode just matched.
      const agent = await findPortalAgent(db, Number(id));
      if (!agent) throw new NotFoundError('Agent', id);
      return issueKioskToken(signer, agent.id, agent.pincode_version);
    },
    /** What the customer portal shows of its agent; the blurb sanitised again on the way out (the portal is public). */
    async portal(id: string) {
      const agent = await findPortalFace(db, Number(id));
      if (!agent) throw new NotFoundError('Agent', id);
      return { ...agent, blurb: agent.blurb ? sanitizeRichText(agent.blurb) : null };
    },
  };
}
