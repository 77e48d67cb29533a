import { formatDateTime } from '../../../src/domain/format';
import { centsToAmount, formatMoney, toCents } from '../../../src/domain/money';
import {
  APPROVAL_MAIL_WORDS,
  APPROVAL_TEMPLATE_BODIES,
  APPROVAL_TEMPLATE_NAMES,
  APPROVAL_TOKEN,
  type ApprovalAnswer,
  type ApprovalDecision,
  type ApprovalLine,
  type ApprovalMergeField,
  approvalLinesOf,
  approvalOutcome,
  type ApprovalPageRecord,
  approvalPath,
  approvedTotals,
  kindOfLineKey,
  lineRecordOf,
  signaturePng,
} from '../../../src/domain/quote-approval';
import { declinedLinesValue } from '../../../src/domain/history';
import { invoiceLanguage, lineWords } from '../../../src/domain/invoice';
import { type SavedQuote, supplementLabel } from '../../../src/domain/quote-model';
import { quoteRecordOf } from '../../../src/domain/quote-wire';
import { fillMergeFields } from '../../../src/domain/scan-mail';
import type { Transaction } from 'kysely';
import type { Executor } from '../../db/database';
import type { DB } from '../../db/schema';
import { AppError, NotFoundError, ValidationError } from '../../errors';
import type { CallLog } from '../../lib/caller';
import { headerAndFooter, htmlToText, wrapMail } from '../../lib/mail-layout';
import type { Mailer } from '../../lib/mail-outbox';
import { renderApprovedEstimatePdf } from '../../lib/pdf/approval';
import { sanitizeRichText } from '../../lib/rich-text';
import { attemptThrottle } from '../../lib/throttle';
import { hashToken, newToken } from '../../lib/tokens';
import { recordQuoteEvent } from './history-service';
import { publishQuoteChange } from './quote-events';
import {
  type ApprovalLinkRow,
  approvalDays,
  approvalTemplate,
  findLinkByHash,
  insertLink,
  lockQuoteStatus,
  markExpired,
  markViewed,
  panelImages,
  revokeOpenLinks,
  saveAnswer,
  setQuoteStatus,
  setSignedPdf,
  termsText,
} from './approvals-repository';
import { findQuote } from './quotes-repository';
import { carriedAnswers, freezeRevision, sentRevision, supplementChanges } from './revisions-service';
import { QUOTE_MODEL, type QuoteCaller, type QuoteDeps } from './quotes-service';

/** Wrong tokens one address may try per minute before every approval call from it is refused (429). */
export const APPROVAL_TOKEN_ATTEMPTS = 20;

/** Where a request to the public page comes from (kept with the answer). */
export interface ApprovalVisitor {
  ip: string;
  userAgent: string | null;
  log: CallLog;
}

/** A link that names no link: tampered, mistyped or made up. Never echoes the token. */
/** Why a supplement that changes none of the lines the customer answered is not sent. */
export const NOTHING_TO_APPROVE = 'Nothing has changed since the customer answered: there is no line to ask about';

const invalidLink = () => new AppError(404, 'This approval link is not valid');

/**
 * Approval by link: Quote Generation sends a quote for approval (a mail with a single-purpose link) and revokes the
 * link; the public page reads the estimate through the link and answers it once. Every change writes the quote's
 * event and queues its webhook in its transaction, and is published live after the commit.
 */
export function quoteApprovals(
  deps: QuoteDeps,
  mail: {
    mailer: Mailer;
    appUrl: string;
    /** Runs work the reply need not wait for (the app's background tasks, which shutdown waits for). */
    afterReply: (name: string, task: () => Promise<unknown>) => void;
  },
) {
  const { db, storage } = deps;
  const { mailer } = mail;
  const base = mail.appUrl.replace(/\/$/, '');
  const throttle = attemptThrottle(db, {
    bucket: 'approval-token',
    max: APPROVAL_TOKEN_ATTEMPTS,
    windowSeconds: 60,
    message: (s) => `Too many attempts. Please try again in ${s} seconds.`,
  });

  const visible = async (scope: QuoteCaller['scope'], id: number) => {
    const quote = await findQuote(db, id, scope);
    if (!quote) throw new NotFoundError(QUOTE_MODEL, id);
    return quote;
  };

  /** The status change, published with the quote as it now stands. */
  const publish = async (quote: Pick<SavedQuote, 'id'>, status: string, log: CallLog) => {
    const current = await findQuote(db, quote.id).catch((err: unknown) => {
      log.warn({ err, quote: quote.id }, 'could not publish a quote event');
      return null;
    });
    if (current) await publishQuoteChange(deps, current, status, log);
  };

  /** The link behind a token, counted against the address's wrong tokens (429 past the limit). */
  async function linkOf(token: string, ip: string) {
    await throttle.claim(ip);
    const link = APPROVAL_TOKEN.test(token) ? await findLinkByHash(db, hashToken(token)) : null;
    if (!link) throw invalidLink();
    // A working link is no wrong attempt: only wrong tokens stay counted.
    await throttle.forgive(ip);
    return link;
  }

  /** The link's end, lazily: past its date it expires once (the quote too when it was waiting on it), with `quote.expired`. */
  async function expireIfDue(trx: Transaction<DB>, link: ApprovalLinkRow, quote: SavedQuote) {
    if (link.revoked_at || link.decided_at || link.expires_at.getTime() > Date.now()) return false;
    if (!(await markExpired(trx, link.id))) return true;
    if (link.latest && (await lockQuoteStatus(trx, quote.id)) === 'sent') {
      await setQuoteStatus(trx, quote.id, 'expired');
      await recordQuoteEvent(trx, null, quote, 'quote.expired', { status: 'sent' }, { status: 'expired' });
      await deps.enqueue(trx, quote.agent_id, 'quote.expired', { quote_id: quote.id, expired_at: new Date().toISOString() });
    }
    return true;
  }

  const stateOf = (link: ApprovalLinkRow): ApprovalPageRecord['state'] =>
    link.decided_at
      ? 'answered'
      : link.revoked_at
        ? 'revoked'
        : link.expired_at || link.expires_at.getTime() <= Date.now()
          ? 'expired'
          : 'open';

  const agentOf = (q: SavedQuote): ApprovalPageRecord['agent'] => ({
    name: q.agent.name ?? null,
    email: q.agent.email ?? null,
    phone: q.agent.phone ?? null,
    logo: q.agent.logo ?? null,
    language: q.agent.language ?? null,
  });

  /** The public page: the estimate to answer, the answer given, or why the link no longer opens. The first opening sends `quote.viewed`. */
  async function page(token: string, visitor: ApprovalVisitor): Promise<ApprovalPageRecord> {
    const found = await linkOf(token, visitor.ip);
    const quote = (await findQuote(db, found.quote_id))!;
    let published: string | null = null;
    const link = await db.transaction().execute(async (trx) => {
      const l = (await findLinkByHash(trx, hashToken(token), true))!;
      if (await expireIfDue(trx, l, quote)) {
        if (l.latest) published = 'expired';
      } else if (stateOf(l) === 'open' && (await markViewed(trx, l.id))) {
        await recordQuoteEvent(trx, null, quote, 'quote.viewed');
        await deps.enqueue(trx, quote.agent_id, 'quote.viewed', { quote_id: quote.id, viewed_at: new Date().toISOString() });
      }
      return (await findLinkByHash(trx, hashToken(token)))!;
    });
    if (published) await publish(quote, published, visitor.log);
    const state = stateOf(link);
    const agent = agentOf(quote);
    if (state === 'expired' || state === 'revoked') return { state, agent, quote: null, answer: null };
    // The revision the link was sent for: an answered link of an earlier revision shows what was answered.
    const shown = await sentRevision(db, quote, link.revision);
    const lines = approvalLinesOf(shown);
    const images = await panelImages(db, quote.scan_id);
    const carried = link.carried ?? {};
    const decided = new Map<string, { decision: ApprovalDecision; reason: string | null }>([
      ...Object.entries(carried),
      ...(link.lines ?? []).map((l) => [l.key, l] as const),
    ]);
    const totals = shown.totals;
    // A supplement says what changed since the revision sent before it: its new lines, and each changed one's work before.
    const changes = link.revision > 0 ? await supplementChanges(db, { ...shown, revision: link.revision }) : null;
    const added = new Set(changes?.delta.added.map((l) => l.key));
    const before = new Map(changes?.delta.changed.map((c) => [c.key, c.before]));
    return {
      state,
      agent,
      quote: {
        id: quote.id,
        revision: link.revision,
        currency: shown.currency,
        registration: quote.scan.licensePlate,
        make: quote.scan.make,
        model: quote.scan.model,
        client_name: quote.client_name,
        expires_at: link.expires_at.toISOString(),
        gst_percent: shown.gst_percent,
        sub_total: centsToAmount(totals.sub_total),
        tax: centsToAmount(totals.tax),
        grand_total: centsToAmount(totals.grand_total),
        lines: lines.map((l) =>
          lineRecordOf(l, decided.get(l.key), l.car_panel ? (images.get(l.car_panel) ?? []) : [], l.key in carried, {
            added: added.has(l.key),
            before: before.get(l.key) ?? null,
          }),
        ),
        removed: (changes?.delta.removed ?? []).map((l) => ({
          key: l.key,
          kind: kindOfLineKey(l.key),
          label: l.label,
          repair_type: l.repair_type,
          category: l.category ?? null,
          amount: centsToAmount(l.amount),
        })),
        terms: sanitizeRichText(await termsText(db)),
      },
      answer:
        state === 'answered'
          ? {
              status: approvalOutcome((link.lines ?? []).map((l) => l.decision)),
              signer_name: link.signer_name ?? '',
              decided_at: link.decided_at!.toISOString(),
              approved_total: link.approved_total ?? 0,
            }
          : null,
    };
  }

  return {
    page,

    /** Sends the quote for approval: revokes its open link, makes a new one, mails it; the quote becomes `sent`. */
    async send({ actor, scope, log }: QuoteCaller, id: number, recipient: string) {
      const quote = await visible(scope, id);
      const token = newToken();
      await db.transaction().execute(async (trx) => {
        const status = await lockQuoteStatus(trx, quote.id);
        if (status === 'approved' || status === 'partially_approved' || status === 'declined')
          throw new ValidationError({ recipient: 'The customer has answered this quote already' });
        await revokeOpenLinks(trx, quote.id);
        // What is sent is frozen: a later save starts a supplement and leaves this revision as it was sent.
        const carried = await carriedAnswers(trx, quote);
        // A supplement whose every line the customer has answered already asks for a signature on the revised estimate
        // when it removes lines (the page lists them) or its total moved (a new GST rate); else there is nothing to send.
        if (carried && approvalLinesOf(quote).every((l) => l.key in carried)) {
          const delta = (await supplementChanges(trx, quote))?.delta;
          if (!delta?.removed.length && !delta?.total.difference) throw new ValidationError({ recipient: NOTHING_TO_APPROVE });
        }
        await freezeRevision(deps, trx, quote, actor.id);
        const link = await insertLink(trx, {
          quoteId: quote.id,
          revision: quote.revision,
          carried,
          hash: hashToken(token),
          recipient,
          sentBy: actor.id,
          days: await approvalDays(trx),
        });
        await setQuoteStatus(trx, quote.id, 'sent');
        await recordQuoteEvent(trx, actor, quote, 'quote.sent', { status, recipient: null }, { status: 'sent', recipient });
        await mailer.enqueue(trx, await approvalMail(trx, quote, recipient, `${base}${approvalPath(token)}`, link.expires_at));
        await deps.enqueue(trx, quote.agent_id, 'quote.sent', {
          quote_id: quote.id,
          recipient,
          expires_at: link.expires_at.toISOString(),
          quote: quoteRecordOf(quote),
        });
      });
      await publish(quote, 'sent', log);
      return (await findQuote(db, quote.id, scope))!;
    },

    /** Revokes the quote's open link: it answers the revoked page from now on; the quote becomes `revoked`. */
    async revoke({ actor, scope, log }: QuoteCaller, id: number) {
      const quote = await visible(scope, id);
      await db.transaction().execute(async (trx) => {
        const status = await lockQuoteStatus(trx, quote.id);
        if (!(await revokeOpenLinks(trx, quote.id))) throw new ValidationError({ approval: 'This quote has no open approval link' });
        await setQuoteStatus(trx, quote.id, 'revoked');
        await recordQuoteEvent(trx, actor, quote, 'quote.revoked', { status }, { status: 'revoked' });
      });
      await publish(quote, 'revoked', log);
      return (await findQuote(db, quote.id, scope))!;
    },

    /**
     * The customer's answer, once: every offered line decided (a reason for each declined one), the terms accepted, the
     * typed name and the drawn signature. Used: 409; expired or revoked: 410; nothing changes then.
     */
    async answer(token: string, body: ApprovalAnswer, visitor: ApprovalVisitor) {
      const found = await linkOf(token, visitor.ip);
      const quote = (await findQuote(db, found.quote_id))!;
      const lines = approvalLinesOf(quote);
      // A supplement's unchanged lines keep the earlier answer; only the others are asked.
      const carried = found.carried ?? {};
      const signature = signaturePng(body.signature);
      const errors = decisionErrors(
        lines.filter((l) => !(l.key in carried)),
        body,
      );
      if (!signature) errors.signature = 'Signature must be a PNG image';
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const decisions: Record<string, ApprovalDecision> = {
        ...Object.fromEntries(Object.entries(carried).map(([k, a]) => [k, a.decision])),
        ...Object.fromEntries(body.decisions.map((d) => [d.key, d.decision])),
      };
      const reasons: Record<string, string | null> = {
        ...Object.fromEntries(Object.entries(carried).map(([k, a]) => [k, a.reason])),
        ...Object.fromEntries(body.decisions.map((d) => [d.key, d.reason?.trim() || null])),
      };
      const totals = approvedTotals(lines, decisions, quote.gst_percent);
      const outcome = approvalOutcome(lines.map((l) => decisions[l.key]));
      const stored = lines.map((l) => ({
        key: l.key,
        kind: l.kind,
        label: l.label,
        repair_type: l.repair_type,
        category: l.category,
        amount: centsToAmount(l.amount),
        decision: decisions[l.key],
        reason: decisions[l.key] === 'declined' ? reasons[l.key] : null,
      }));
      let expired = false;
      const { linkId, decidedAt } = await db.transaction().execute(async (trx) => {
        const link = (await findLinkByHash(trx, hashToken(token), true))!;
        if (link.decided_at) throw new AppError(409, 'This approval link has been used already');
        if (link.revoked_at) throw new AppError(410, 'This approval link has been revoked');
        if (await expireIfDue(trx, link, quote)) {
          expired = true;
          return { linkId: link.id, decidedAt: null };
        }
        const before = await lockQuoteStatus(trx, quote.id);
        const decidedAt = await saveAnswer(trx, link.id, {
          lines: stored,
          approvedTotal: centsToAmount(totals.grand_total),
          signerName: body.signer_name,
          signature: Buffer.from(signature!),
          ip: visitor.ip,
          userAgent: visitor.userAgent?.slice(0, 500) ?? null,
        });
        await setQuoteStatus(trx, quote.id, outcome);
        const declined = stored.filter((l) => l.decision === 'declined');
        await recordQuoteEvent(
          trx,
          null,
          quote,
          `quote.${outcome}`,
          { status: before },
          {
            status: outcome,
            signer_name: body.signer_name,
            approved_total: centsToAmount(totals.grand_total),
            declined_lines: declinedLinesValue(declined),
          },
        );
        // Partially approved is an approval: `quote.approved` lists the declined lines beside the approved ones.
        await deps.enqueue(trx, quote.agent_id, outcome === 'declined' ? 'quote.declined' : 'quote.approved', {
          quote_id: quote.id,
          status: outcome,
          signer_name: body.signer_name,
          decided_at: decidedAt.toISOString(),
          approved_total: centsToAmount(totals.grand_total),
          approved_lines: stored.filter((l) => l.decision === 'approved'),
          declined_lines: declined,
        });
        return { linkId: link.id, decidedAt };
      });
      if (expired) {
        await publish(quote, 'expired', visitor.log);
        throw new AppError(410, 'This approval link has expired');
      }
      // The answer is stored: the customer's reply does not wait for the signed PDF. The agent's screens hear of the
      // answer once its PDF is there, so they show both together.
      mail.afterReply('signed estimate PDF', async () => {
        await makeSignedPdf(linkId, quote, stored, totals, body.signer_name, decidedAt!, Buffer.from(signature!), visitor.log);
        await publish(quote, outcome, visitor.log);
      });
      return page(token, visitor);
    },
  };

  async function approvalMail(trx: Executor, quote: SavedQuote, recipient: string, link: string, expires: Date) {
    // The agent's language, as the page the link opens and the estimate's PDF.
    const language = invoiceLanguage(quote.agent.language);
    const values: Record<ApprovalMergeField, string | null> = {
      client_name: quote.client_name,
      registration: quote.scan.licensePlate,
      make: quote.scan.make,
      model: quote.scan.model,
      quote_number: `#${quote.id}`,
      grand_total: formatMoney(quote.totals.grand_total, quote.currency),
      approval_link: link,
      expires_on: formatDateTime(expires, language),
      agent_name: quote.agent.name ?? null,
      agent_email: quote.agent.email ?? null,
      agent_phone: quote.agent.phone ?? null,
    };
    const template = (await approvalTemplate(trx, APPROVAL_TEMPLATE_NAMES[language])) ?? APPROVAL_TEMPLATE_BODIES[language];
    // A supplement says so: only its changed lines are asked, the earlier answers stand for the others.
    const label = supplementLabel(quote.revision);
    const words = APPROVAL_MAIL_WORDS[language];
    const subject = fillMergeFields(label ? words.supplement_subject.replace('{label}', label) : words.subject, values, 'text').text;
    const intro = label ? `<p>${words.supplement_intro.replace('{label}', label)}</p>` : '';
    // A field with no value (a scan without a registration) is left out rather than shown as a placeholder.
    const message = sanitizeRichText(
      intro + fillMergeFields(sanitizeRichText(template), values, 'html').text.replace(/\{\{[^{}]*\}\}/g, ''),
    );
    const { header, footer } = await headerAndFooter(trx);
    return {
      to: [recipient],
      subject: subject.replace(/\{\{[^{}]*\}\}/g, '').trim(),
      html: wrapMail({ header, message, footer, subject }),
      text: [htmlToText(header), htmlToText(message), htmlToText(footer)].filter(Boolean).join('\n\n'),
    };
  }

  /** The signed "Approved estimate" PDF, stored and linked from the link's row. A failure is logged: the answer stands. */
  async function makeSignedPdf(
    linkId: number,
    quote: SavedQuote,
    stored: {
      kind: string;
      label: string;
      repair_type: string;
      category: string | null;
      amount: number;
      decision: ApprovalDecision;
      reason: string | null;
    }[],
    totals: { sub_total: number; tax: number; grand_total: number },
    signerName: string,
    decidedAt: Date,
    signature: Buffer,
    log: CallLog,
  ) {
    try {
      const money = (cents: number) => formatMoney(cents, quote.currency);
      const pdf = renderApprovedEstimatePdf({
        quoteId: quote.id,
        agentName: quote.agent.name ?? null,
        registration: quote.scan.licensePlate,
        vehicle: [quote.scan.make, quote.scan.model].filter(Boolean).join(' '),
        lines: stored.map((l) => ({
          label: l.label,
          repairType: lineWords(l, 'en'),
          amount: money(toCents(l.amount)),
          decision: l.decision,
          reason: l.reason,
        })),
        totals: [
          { label: 'Approved sub total', amount: money(totals.sub_total) },
          { label: 'GST', amount: money(totals.tax) },
          { label: 'Approved total', amount: money(totals.grand_total) },
        ],
        signerName,
        signedAt: `${formatDateTime(decidedAt, 'en')} (Melbourne)`,
        signature,
      });
      const key = await storage.put(pdf, 'application/pdf');
      await setSignedPdf(db, linkId, key);
    } catch (err) {
      log.error({ err, quote: quote.id }, 'could not make the approved estimate PDF');
    }
  }
}

/** Every offered line decided once, no other line, a reason for each declined one: field errors by the body's paths. */
function decisionErrors(lines: readonly ApprovalLine[], body: ApprovalAnswer) {
  const errors: Record<string, string> = {};
  const offered = new Set(lines.map((l) => l.key));
  const seen = new Set<string>();
  body.decisions.forEach((d, i) => {
    if (!offered.has(d.key) || seen.has(d.key)) errors[`decisions.${i}.key`] = 'The selected line is invalid';
    seen.add(d.key);
    if (d.decision === 'declined' && !d.reason?.trim()) errors[`decisions.${i}.reason`] = 'A reason is required to decline a line';
  });
  if (lines.some((l) => !seen.has(l.key))) errors.decisions = 'Every line must be approved or declined';
  return errors;
}
