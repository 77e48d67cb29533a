import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { approvalAnswerBody, ApprovalPageRecord, sendApprovalBody } from '../../../src/domain/quote-approval';
import { QuoteRecord } from '../../../src/domain/quotes';
import { quoteRecordOf } from '../../../src/domain/quote-wire';
import { RESOURCES } from '../../../src/domain/resources';
import { callerOf } from '../../lib/caller';
import { dataReply, ErrorReply, recordErrors } from '../../lib/replies';
import { APPROVAL_TOKEN_ATTEMPTS, type quoteApprovals } from './approvals-service';
import { parseQuoteId } from './quotes-routes';

const IdParams = z.object({ id: z.string() });
const TokenParams = z.object({ token: z.string().max(200) });
const publicErrors = { 404: ErrorReply, 409: ErrorReply, 410: ErrorReply, 422: ErrorReply, 429: ErrorReply, 500: ErrorReply } as const;

/**
 * Approval by link: sending and revoking on a quote (`quote_edit`, scoped like the quote), and the public page's two
 * calls, which the link's token alone opens (no sign-in). The token is in the path, which the request log redacts
 * (server/lib/log-redaction.ts).
 */
export function approvalRoutes(app: FastifyInstance, opts: { approvals: ReturnType<typeof quoteApprovals> }, done: () => void) {
  const { approvals } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Quote approval'];
  const edit = { permission: RESOURCES.quotes.edit };
  const visitor = (req: FastifyRequest) => ({
    ip: req.ip,
    userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null,
    log: req.log,
  });
  const throttled = `${APPROVAL_TOKEN_ATTEMPTS} wrong tokens per minute from one address, then 429 for every token.`;

  r.post(
    '/quotes/:id/approval',
    {
      config: { access: edit },
      schema: {
        tags,
        summary: 'Send the quote for approval',
        description:
          "Body {recipient}: any e-mail address (Quote Generation offers the client's). Revokes the quote's open link, makes a new " +
          'single-use link valid QUOTE_APPROVAL_DAYS days (default 14), mails it through the outbox with the "Quote approval request" ' +
          "template; the quote's status becomes sent; queues quote.sent. 422 on recipient once the customer has answered.",
        params: IdParams,
        body: sendApprovalBody,
        response: { 200: dataReply(QuoteRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: quoteRecordOf(await approvals.send(callerOf(req), parseQuoteId(req.params.id), req.body.recipient)) }),
  );

  r.delete(
    '/quotes/:id/approval',
    {
      config: { access: edit },
      schema: {
        tags,
        summary: "Revoke the quote's open approval link",
        description:
          "The link answers the revoked page from now on; the quote's status becomes revoked. 422 on approval when none is open.",
        params: IdParams,
        response: { 200: dataReply(QuoteRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: quoteRecordOf(await approvals.revoke(callerOf(req), parseQuoteId(req.params.id))) }),
  );

  r.get(
    '/approvals/:token',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'The public approval page of a link',
        description:
          'state open (the estimate to answer: lines with their evidence, the terms), answered (read-only, with what was approved), ' +
          "expired or revoked (only the agent's contact). The first opening queues quote.viewed; a link past its date expires the quote " +
          `once (quote.expired). 404 for a token that names no link. ${throttled}`,
        params: TokenParams,
        response: { 200: dataReply(ApprovalPageRecord), ...publicErrors },
      },
    },
    async (req) => ({ data: await approvals.page(req.params.token, visitor(req)) }),
  );

  r.post(
    '/approvals/:token',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Answer a link: approve or decline each line, accept the terms, sign',
        description:
          'Body {decisions: [{key, decision: approved | declined, reason}], terms_accepted: true, signer_name, signature: a PNG data URL}. ' +
          "Every offered line once, a reason for each declined one. Stores the answer with the address and user agent, sets the quote's " +
          'status (approved, partially_approved, declined), makes the signed PDF, queues quote.approved (partially approved too, with ' +
          `declined_lines) or quote.declined. 409 when used, 410 when expired or revoked, 404 for no link. ${throttled}`,
        params: TokenParams,
        body: approvalAnswerBody,
        response: { 200: dataReply(ApprovalPageRecord), ...publicErrors },
      },
    },
    async (req) => ({ data: await approvals.answer(req.params.token, req.body, visitor(req)) }),
  );
  done();
}
