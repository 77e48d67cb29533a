import { centsToAmount } from '../../../src/domain/money';
import type { CarriedAnswers } from '../../../src/domain/quote-approval';
import { reapproval } from '../../../src/domain/quote-delta';
import { type SavedQuote, supplementLabel } from '../../../src/domain/quote-model';
import { deltaRecordOf, type QuoteRevisionsRecord, revisionDelta, savedQuoteOfJson } from '../../../src/domain/quote-revisions';
import type { DataScope } from '../../../src/domain/permissions';
import type { Executor } from '../../db/database';
import { NotFoundError } from '../../errors';
import { fileUrl, type FileStorage } from '../../lib/storage';
import { quotePdfBytes, type SupplementChanges } from './quote-pdf';
import { earlierAnswer, findRevision, insertRevision, listRevisions, previousRevision, revisionFrozen } from './revisions-repository';

/**
 * Quote revisions: the revision sent for approval is frozen (its saved quote, grand total, client and a copy of its
 * PDF); saving a quote whose revision was sent starts the next supplement (quotes-service.ts). Here: freezing, the
 * supplement's changes since the revision sent before it, and reading the revisions back.
 */

/** The supplement's changes since the latest revision frozen before it; null for the original estimate. */
export async function supplementChanges(db: Executor, quote: SavedQuote): Promise<SupplementChanges | null> {
  if (quote.revision === 0) return null;
  const before = await previousRevision(db, quote.id, quote.revision);
  return before ? { since: before.number, delta: revisionDelta(savedQuoteOfJson(before.quote), quote) } : null;
}

/**
 * Freezes the quote's current revision in the writer's transaction, once: a copy of its PDF of this moment (made now
 * when it has none) is stored as a file of its own, so replacing the quote's PDF on a later save leaves it.
 */
export async function freezeRevision(deps: { storage: FileStorage }, trx: Executor, quote: SavedQuote, actorId: number | null) {
  if (await revisionFrozen(trx, quote.id, quote.revision)) return false;
  const current = quote.pdf_key ? await deps.storage.get(quote.pdf_key) : null;
  const pdf = current?.data ?? (await quotePdfBytes(deps.storage, quote, await supplementChanges(trx, quote)));
  const pdfKey = await deps.storage.put(pdf, 'application/pdf');
  const inserted = await insertRevision(trx, {
    quoteId: quote.id,
    number: quote.revision,
    quote,
    grandTotal: centsToAmount(quote.totals.grand_total),
    clientSnapshot: quote.client,
    pdfKey,
    createdBy: actorId,
  });
  if (!inserted) await deps.storage.delete(pdfKey);
  return inserted;
}

/**
 * What a supplement's link carries over: the customer's latest answer to an earlier revision, on the lines unchanged
 * since that revision (`reapproval`); the added and changed lines are asked. Null for the original or without an answer.
 */
export async function carriedAnswers(db: Executor, quote: SavedQuote): Promise<CarriedAnswers | null> {
  if (quote.revision === 0) return null;
  const earlier = await earlierAnswer(db, quote.id, quote.revision);
  const answered = earlier && (await findRevision(db, quote.id, earlier.revision));
  if (!earlier || !answered) return null;
  const delta = revisionDelta(savedQuoteOfJson(answered.quote), quote);
  return reapproval(delta, Object.fromEntries(earlier.lines.map((l) => [l.key, { decision: l.decision, reason: l.reason }]))).carried;
}

/** The quote as revision `number` was sent (its frozen copy), or as it is when that is its current revision. */
export async function sentRevision(db: Executor, quote: SavedQuote, number: number): Promise<SavedQuote> {
  if (number === quote.revision) return quote;
  const row = await findRevision(db, quote.id, number);
  return row ? savedQuoteOfJson(row.quote) : quote;
}

/** The revisions of a visible quote (404 otherwise) and one frozen revision read back as the saved quote it was. */
export function quoteRevisions(deps: { db: Executor }, visible: (scope: DataScope, id: number) => Promise<SavedQuote>) {
  const { db } = deps;

  /** Revision `number` of the quote as it was sent; the quote itself for its current revision when not frozen; else 404. */
  async function revisionOf(quote: SavedQuote, number: number): Promise<SavedQuote> {
    const row = await findRevision(db, quote.id, number);
    if (!row) {
      if (number === quote.revision) return quote;
      throw new NotFoundError('Quote revision', number);
    }
    const frozen = savedQuoteOfJson(row.quote);
    return {
      ...frozen,
      revision: row.number,
      status: number === quote.revision ? quote.status : row.status,
      pdf_key: row.pdf_key,
      pdf_url: row.pdf_key ? fileUrl(row.pdf_key) : null,
    };
  }

  return {
    /** Every revision, oldest first (the current one last, frozen or not), and the delta of `shown` (the current one by default). */
    async revisions({ scope }: { scope: DataScope }, id: number, shown?: number): Promise<QuoteRevisionsRecord> {
      const quote = await visible(scope, id);
      const changed = shown === undefined ? quote : await revisionOf(quote, shown);
      const frozen = await listRevisions(db, quote.id);
      const revisions: QuoteRevisionsRecord['revisions'] = frozen.map((r) => ({
        number: r.number,
        label: supplementLabel(r.number),
        // The current revision's status is the quote's; an earlier one's, its own link's outcome.
        status: r.number === quote.revision ? quote.status : r.status,
        grand_total: r.grand_total,
        sent_at: r.created_at,
        pdf: r.pdf_key ? fileUrl(r.pdf_key) : null,
        signed_pdf: r.signed_pdf_key ? fileUrl(r.signed_pdf_key) : null,
      }));
      if (!frozen.some((r) => r.number === quote.revision))
        revisions.push({
          number: quote.revision,
          label: supplementLabel(quote.revision),
          status: quote.status,
          grand_total: centsToAmount(quote.totals.grand_total),
          sent_at: null,
          pdf: quote.pdf_url,
          signed_pdf: null,
        });
      const changes = await supplementChanges(db, changed);
      return { current: quote.revision, revisions, delta: changes && deltaRecordOf(changes.delta, changes.since) };
    },

    /** A revision as it was sent (its frozen copy, never re-priced); the current one when it is not frozen. */
    async revision({ scope }: { scope: DataScope }, id: number, number: number): Promise<SavedQuote> {
      return revisionOf(await visible(scope, id), number);
    },
  };
}
