import type { SavedQuote } from '../../../src/domain/quote-model';
import type { Executor } from '../../db/database';
import type { CallLog } from '../../lib/caller';
import type { Broadcaster } from '../../realtime/broadcaster';
import { scanValuation } from './approvals-repository';

/**
 * The agent's users see a quote's change without a reload (the quotes list, the dashboard's approval figures, the
 * generation screen's approval card): the quote's scan row travels on the scan channels, which carry it only to the
 * users who may see the scan, with `quote_id` and the quote's status (`deleted` once it is gone). A failure is only
 * logged: the change itself has committed.
 */
export async function publishQuoteChange(
  deps: { db: Executor; broadcaster?: Broadcaster },
  quote: SavedQuote,
  status: string,
  log: Pick<CallLog, 'warn'>,
) {
  const b = deps.broadcaster;
  if (!b) return;
  try {
    await b.scanUpdated({
      id: quote.scan_id,
      agent_id: quote.agent_id,
      client_id: quote.client_id,
      status: quote.scan.status,
      type: quote.scan.type,
      carColor: quote.scan.carColor,
      licensePlate: quote.scan.licensePlate,
      make: quote.scan.make,
      model: quote.scan.model,
      client_name: quote.client_name,
      body_type: quote.scan.body_type ?? null,
      valuation: await scanValuation(deps.db, quote.scan_id),
      location_state: quote.scan.location_state,
      quote_id: quote.id,
      quote_status: status,
    });
  } catch (err) {
    log.warn({ err, quote: quote.id }, 'could not publish a quote event');
  }
}
