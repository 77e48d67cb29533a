import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PORTAL_MODES } from '../../../src/domain/agents';
import { messages } from '../../../src/domain/messages';
import { ValidationError } from '../../errors';
import { callerOf } from '../../lib/caller';
import { dataReply, ErrorReply, recordErrors } from '../../lib/replies';
import type { agentsService } from './agents-service';

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
export function agentRoutes(app: FastifyInstance, opts: { agents: ReturnType<typeof agentsService> }, done: () => void) {
  const { agents } = opts;
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
    async (req) => ({ data: await agents.branding(callerOf(req), req.params.id) }),
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
    async (req) => ({ data: await agents.checkPin(req.params.id, req.ip, req.body.pin) }),
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
      const kiosk = await agents.enrol(req.params.id, req.ip, req.body.pincode);
      if (!kiosk) throw new ValidationError({ pincode: messages.pincode() });
      return { data: { kiosk_token: kiosk.token, expires_at: kiosk.expiresAt } };
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
    async (req) => ({ data: await agents.portal(req.params.id) }),
  );
  done();
}
