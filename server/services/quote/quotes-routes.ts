import { fromDecimalText } from '../../../src/domain/text';
import { callerOf } from '../../lib/caller';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ConflictReply } from '../../../src/domain/versions';
import { pageParams } from '../../../src/domain/fields';
import {
  QUOTE_SORTABLE,
  quoteBody,
  quoteFilterQuery,
  QuoteListRecord,
  quoteManualCheckBody,
  QuoteRecord,
  quoteSearchBody,
} from '../../../src/domain/quotes';
import { exportFormatField, orderedDays, reportLanguageField } from '../../../src/domain/scans';
import { quoteRecordOf } from '../../../src/domain/quote-wire';
import { QuoteRevisionsRecord } from '../../../src/domain/quote-revisions';
import { RESOURCES } from '../../../src/domain/resources';
import { NotFoundError } from '../../errors';
import { multipartBody } from '../../lib/multipart';
import { dataReply, recordErrors } from '../../lib/replies';
import { FILE_LINK_MINUTES } from '../../lib/storage';
import { REPORT_MAX_ROWS, REPORT_TTL_HOURS } from '../../lib/report-file';
import { QUOTE_MODEL, type quoteRecords } from './quotes-service';

const IdParams = z.object({ id: z.string() });
const RevisionNumber = z.preprocess(
  (v) => (v === '' ? undefined : v),
  fromDecimalText(z.number({ error: 'Revision must be a whole number' }).int('Revision must be a whole number').min(0).max(1_000_000)),
);

/** Ids in paths are positive integers; anything else names no row, so it is the model's 404. */
export const parseQuoteId = (raw: string) => {
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new NotFoundError(QUOTE_MODEL, raw);
  return Number(raw);
};

/** The service's plain inputs of a signed-in request: the user, their data scope, the request's logger. */

const pageQuery = quoteFilterQuery
  .extend({
    ...pageParams,
    sort: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.enum(QUOTE_SORTABLE, { error: 'The selected sort is invalid' }).default('created_at'),
    ),
    order: z.preprocess(
      (v) => (v === '' ? undefined : typeof v === 'string' ? v.toLowerCase() : v),
      z.enum(['asc', 'desc'], { error: 'Order must be asc or desc' }).default('desc'),
    ),
  })
  .refine(...orderedDays('ts', 'te'));

/**
 * The quotes, scoped like scans (an Agent or Client user sees the quotes of their scans): reading needs
 * `scan`, every change (save, delete, the quote-check flag, photo removal) `quote_edit`.
 */
export function quoteRoutes(app: FastifyInstance, opts: { quotes: ReturnType<typeof quoteRecords> }, done: () => void) {
  const { quotes } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Quote'];
  const access = { permission: RESOURCES.quotes.permission };
  const edit = { permission: RESOURCES.quotes.edit };

  r.get(
    '/quotes',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Page of quotes, newest first',
        description:
          'Filters: ts/te (creation, YYYY-MM-DD or YYYY-MM-DD HH:mm:ss in Australia/Melbourne time, te inclusive), type, agent_id, client_id, ' +
          "location_state (the scan's), q (registration prefix, client or agent name). sort: " +
          `${QUOTE_SORTABLE.join(', ')} (default created_at), order asc or desc (default desc), over the whole result. ` +
          "`total` is exact up to 10,000 matches; beyond that it is the planner's estimate and `total_is_estimate` is true.",
        querystring: pageQuery,
        response: {
          200: z.object({
            items: z.array(QuoteListRecord),
            total: z.number().int(),
            /** True when `total` is the planner's estimate (more than 10,000 matches): the UI says "about N". */
            total_is_estimate: z.boolean(),
          }),
          ...recordErrors,
        },
      },
    },
    async (req) => quotes.list(callerOf(req), req.query),
  );

  r.get(
    '/quotes/export-quote-report',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Export the filtered quotes as CSV or XLSX; replies the file URL',
        description:
          `Same filters and scope as GET quotes; format csv (default) or xlsx; lang en (default) or ja, the language of the headings and words. Replies {data: {url}}: a download link signed for this user, ` +
          `valid ${FILE_LINK_MINUTES} minutes; at most ${REPORT_MAX_ROWS} rows; the file is removed ${REPORT_TTL_HOURS} hours later.`,
        querystring: quoteFilterQuery
          .extend({
            format: exportFormatField,
            lang: reportLanguageField,
            page: z.unknown().optional(),
            per_page: z.unknown().optional(),
            sort: z.unknown().optional(),
            order: z.unknown().optional(),
          })
          .refine(...orderedDays('ts', 'te')),
        response: { 200: dataReply(z.object({ url: z.string() })), ...recordErrors },
      },
    },
    async (req) => ({ data: await quotes.exportReport(callerOf(req), req.query) }),
  );

  r.post(
    '/quotes/search',
    {
      config: { access },
      schema: {
        tags,
        summary: "The scan's quote, or null",
        description:
          "Body {scan_id}. The quote generation screen loads an existing quote on entry; a scan the user may not see is the model's 404.",
        body: quoteSearchBody,
        response: { 200: dataReply(QuoteRecord.nullable()), ...recordErrors },
      },
    },
    async (req) => {
      const quote = await quotes.search(callerOf(req), req.body.scan_id);
      return { data: quote && quoteRecordOf(quote) };
    },
  );

  r.post(
    '/quotes',
    {
      config: { access: edit },
      preValidation: multipartBody({ vehicle_photo: 'vehicle_photo' }),
      schema: {
        tags,
        summary: "Save (create or re-price) the scan's quote",
        description:
          'multipart/form-data (the quote screen: text parts, items / products / parts as JSON text, the file vehicle_photo) or JSON (the scan ' +
          "page). The server checks the panels, products and parts, prices every line with the client's current prices, surcharges and " +
          'GST_PERCENT and stores the figures with a snapshot of them; figures sent by the browser are ignored. One quote per ' +
          "scan: saving again updates it and keeps its id. Queues quote.generated for the agent's webhooks. 201 when created, 200 when updated." +
          " `version`: the quote's version the form was made from (0: no quote yet); from another version: 409 with `conflict`, nothing stored.",
        body: quoteBody,
        response: { 200: dataReply(QuoteRecord), 201: dataReply(QuoteRecord), 409: ConflictReply, ...recordErrors },
      },
    },
    async (req, reply) => {
      const { created, quote } = await quotes.save(callerOf(req), req.body);
      return reply.status(created ? 201 : 200).send({ data: quoteRecordOf(quote) });
    },
  );

  r.get(
    '/quotes/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: 'One quote, or one of its revisions as it was sent',
        description:
          '`revision` (0 the original estimate, n the supplement Sn): the revision frozen when it was sent, with its own PDF, never ' +
          "re-priced; the current revision's number gives the quote as it is. A revision the quote does not have is the 404 of " +
          '[Quote revision].',
        params: IdParams,
        querystring: z.object({ revision: RevisionNumber.optional() }),
        response: { 200: dataReply(QuoteRecord), ...recordErrors },
      },
    },
    async (req) => {
      const id = parseQuoteId(req.params.id);
      const { revision } = req.query;
      const quote = revision === undefined ? await quotes.detail(callerOf(req), id) : await quotes.revision(callerOf(req), id, revision);
      return { data: quoteRecordOf(quote) };
    },
  );

  r.get(
    '/quotes/:id/revisions',
    {
      config: { access },
      schema: {
        tags,
        summary: "The quote's revisions and a supplement's changes",
        description:
          'Every revision, oldest first: number (0 the original estimate), label (S1, S2…; null for the original), status, grand ' +
          'total, sent_at (null for a draft supplement not sent yet) and its PDF. `delta`: the current revision against the one ' +
          'sent before it (lines added, removed and changed, each with its amount, and the grand total before and after); null ' +
          'for the original estimate. `revision`: the delta of that revision instead (a supplement sent earlier against the one ' +
          'sent before it); a revision the quote does not have is the 404 of [Quote revision].',
        params: IdParams,
        querystring: z.object({ revision: RevisionNumber.optional() }),
        response: { 200: dataReply(QuoteRevisionsRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: await quotes.revisions(callerOf(req), parseQuoteId(req.params.id), req.query.revision) }),
  );

  r.delete(
    '/quotes/:id',
    {
      config: { access: edit },
      schema: {
        tags,
        summary: 'Delete a quote with its photo and PDF',
        params: IdParams,
        response: { 200: dataReply(QuoteRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: quoteRecordOf(await quotes.remove(callerOf(req), parseQuoteId(req.params.id))) }),
  );

  r.put(
    '/quotes/:id/manual_check',
    {
      config: { access: edit },
      schema: {
        tags,
        summary: "Request (1) or withdraw (0) a check of the quote: the scan page's 'Request quote check'",
        description:
          'Body {manual_check: 0 | 1}. Changes only the flag: the quote is not priced again, so its figures stay as issued. ' +
          "Scoped like GET quotes/{id} (a quote out of reach is the model's 404).",
        params: IdParams,
        body: quoteManualCheckBody,
        response: { 200: dataReply(QuoteRecord), ...recordErrors },
      },
    },
    async (req) => ({
      data: quoteRecordOf(await quotes.setManualCheck(callerOf(req), parseQuoteId(req.params.id), req.body.manual_check === 1)),
    }),
  );

  r.put(
    '/quotes/:id/delete_vehicle_photo',
    {
      config: { access: edit },
      schema: {
        tags,
        summary: "Remove the quote's vehicle photo",
        params: IdParams,
        response: { 200: dataReply(QuoteRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: quoteRecordOf(await quotes.deleteVehiclePhoto(callerOf(req), parseQuoteId(req.params.id))) }),
  );
  done();
}
