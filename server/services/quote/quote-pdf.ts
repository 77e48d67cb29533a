import { buildInvoice, invoiceSourceOfQuote } from '../../../src/domain/invoice';
import type { SavedQuote } from '../../../src/domain/quote-model';
import type { QuoteDelta } from '../../../src/domain/quote-delta';
import { supplementBlockOf } from '../../../src/domain/supplement-block';
import { pdfLogo, pdfPhoto } from '../../lib/pdf/logo';
import { renderQuotePdf } from '../../lib/pdf/quote';
import type { FileStorage } from '../../lib/storage';

/** A supplement's changes since the revision sent before it (`since`), as its PDF prints them. */
export interface SupplementChanges {
  since: number;
  delta: QuoteDelta;
}

/**
 * The saved quote's PDF bytes: the invoice model (src/domain/invoice.ts) in the agent's language with the agent's logo
 * and the vehicle photo, and a supplement's block of changes when it is one.
 */
export async function quotePdfBytes(storage: FileStorage, quote: SavedQuote, changes: SupplementChanges | null) {
  const invoice = buildInvoice(invoiceSourceOfQuote(quote));
  const [logo, photo] = await Promise.all([pdfLogo(storage, quote.agent.logo), pdfPhoto(storage, quote.vehicle_photo)]);
  const supplement = changes
    ? supplementBlockOf(changes.delta, { number: quote.revision, since: changes.since }, quote.currency, invoice.language)
    : null;
  return renderQuotePdf(invoice, { logo, photo, supplement });
}
