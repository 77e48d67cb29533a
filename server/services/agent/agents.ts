import { messages } from '../../../src/domain/messages';
import { verify } from '@node-rs/argon2';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { PORTAL_MODES } from '../../../src/domain/agents';
import { dataScope } from '../../../src/domain/permissions';
import { NotFoundError, ValidationError } from '../../errors';
import { dataReply, ErrorReply, recordErrors } from '../../lib/replies';
import type { ResourcePart } from '../../lib/definitions';
import { scopePredicate } from '../../lib/resource';
import { findPortalAgent, issueKioskToken } from '../../lib/kiosk';
import { sanitizeRichText } from '../../lib/rich-text';
import { attemptThrottle } from '../../lib/throttle';
import { agentScope } from './scopes';

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
  from: sql`(select a.*, a.pincode_hash is not null as has_pincode, c.name as default_client_name
    from agents a left join clients c on c.id = a.default_client_id) as agents`,
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

const PortalAgent = z.object({
  id: z.number(),
  name: z.string(),
  primary_color: z.string(),
  text_color: z.string(),
  logo: z.string().nullable(),
  /** The agent's rich-text blurb, sanitised again on the way out (the portal is public). */
  blurb: z.string().nullable(),
  portal_mode: z.enum(PORTAL_MODES.map((m) => m.id)),
});

const Branding = z.object({
  id: z.number(),
  name: z.string(),
  primary_color: z.string(),
  text_color: z.string(),
  logo: z.string().nullable(),
});

/** The header theme's branding and the customer portal's pin check. */
export function agentRoutes(app: FastifyInstance, _opts: unknown, done: () => void) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Agent'];

  r.get(
    '/agents/:id/branding',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: "An agent's colours and logo, for the header theme",
        params: z.object({ id: z.string() }),
        response: { 200: dataReply(Branding), ...recordErrors },
      },
    },
    async (req) => {
      if (!/^\d{1,15}$/.test(req.params.id)) throw new NotFoundError('Agent', req.params.id);
      const rows = await sql<z.infer<typeof Branding>>`select id, name, primary_color, text_color, logo from agents
      where id = ${Number(req.params.id)} and ${scopePredicate(dataScope(req.user!), agentScope)}`.execute(app.db);
      if (!rows.rows[0]) throw new NotFoundError('Agent', req.params.id);
      return { data: rows.rows[0] };
    },
  );

  // The portal's pin checks are public (the kiosk has nobody signed in), only for enabled agents, and throttled.
  r.post(
    '/agents/:id/validate-pin',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "Checks the customer portal's pincode: {data: true} when it matches",
        params: z.object({ id: z.string() }),
        body: z.object({
          pin: z.preprocess(
            (v) => (typeof v === 'number' ? String(v) : v),
            z.string({ error: 'Pincode is required' }).trim().min(1, 'Pincode is required').max(50),
          ),
        }),
        response: { 200: dataReply(z.boolean()), 404: ErrorReply, 422: ErrorReply, 429: ErrorReply },
      },
    },
    async (req) => ({ data: await checkPortalPin(app, req.params.id, req.ip, req.body.pin) }),
  );

  r.post(
    '/agents/:id/portal/enrol',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Enrols a customer-portal kiosk: the pincode for a kiosk token (30 days, void once the pincode changes)',
        description:
          'Throttled with validate-pin (5 failures per 15 minutes per agent and address). The portal sends the token as X-Kiosk-Token on its calls and its channel authorisation.',
        security: [],
        params: z.object({ id: z.string() }),
        body: z.object({
          pincode: z.preprocess(
            (v) => (typeof v === 'number' ? String(v) : v),
            z.string({ error: 'Pincode is required' }).trim().min(1, 'Pincode is required').max(50),
          ),
        }),
        response: {
          200: dataReply(z.object({ kiosk_token: z.string(), expires_at: z.date() })),
          404: ErrorReply,
          422: ErrorReply,
          429: ErrorReply,
        },
      },
    },
    async (req) => {
      if (!(await checkPortalPin(app, req.params.id, req.ip, req.body.pincode))) throw new ValidationError({ pincode: messages.pincode() });
      // Read after the check: the version the pincode just matched.
      const agent = await findPortalAgent(app.db, Number(req.params.id));
      if (!agent) throw new NotFoundError('Agent', req.params.id);
      const { token, expiresAt } = issueKioskToken(app.signer, agent.id, agent.pincode_version);
      return { data: { kiosk_token: token, expires_at: expiresAt } };
    },
  );

  r.get(
    '/agents/:id/portal',
    {
      config: { access: 'portal' },
      schema: {
        tags,
        summary: "The customer portal's agent: name, colours, logo, blurb and access mode (needs X-Kiosk-Token when enrolled)",
        security: [],
        params: z.object({ id: z.string() }),
        response: { 200: dataReply(PortalAgent), 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (req) => {
      const agent = await app.db
        .selectFrom('agents')
        .select(['id', 'name', 'primary_color', 'text_color', 'logo', 'blurb', 'portal_mode'])
        .where('id', '=', Number(req.params.id))
        .executeTakeFirst();
      if (!agent) throw new NotFoundError('Agent', req.params.id);
      return { data: { ...agent, blurb: agent.blurb ? sanitizeRichText(agent.blurb) : null } };
    },
  );
  done();
}

/**
 * The portal's pincode check, shared by validate-pin and enrol: only enabled agents (else the model's 404), at most
 * PIN_MAX_FAILURES checks per window per agent and client address (429; a success clears them), true when it matches.
 */
const pinThrottle = (app: FastifyInstance) =>
  attemptThrottle(app.db, {
    bucket: 'pin',
    max: PIN_MAX_FAILURES,
    windowSeconds: PIN_FAILURE_WINDOW_SECONDS,
    message: (retry) => `Too many pincode attempts. Please try again in ${retry} seconds.`,
  });

async function checkPortalPin(app: FastifyInstance, id: string, ip: string, pin: string): Promise<boolean> {
  if (!/^\d{1,15}$/.test(id)) throw new NotFoundError('Agent', id);
  const agentId = Number(id);
  const agent = await app.db
    .selectFrom('agents')
    .select(['id', 'pincode_hash'])
    .where('id', '=', agentId)
    .where('is_enabled', '=', 1)
    .executeTakeFirst();
  if (!agent) throw new NotFoundError('Agent', id);
  // Counted before the check, in one statement (server/lib/throttle.ts): parallel wrong pins cannot all be checked.
  const key = `${agentId}|${ip}`;
  await pinThrottle(app).claim(key);
  const ok = !!agent.pincode_hash && /^\d{6}$/.test(pin) && (await verify(agent.pincode_hash, pin).catch(() => false));
  if (!ok) return false;
  await pinThrottle(app).clear(key);
  return true;
}
