import { sql } from 'kysely';
import { quoteBody } from '../../src/domain/quotes';
import { loadConfig } from '../config';
import type { Database } from '../db/database';
import { createStorage, type FileStorage } from '../lib/storage';
import {
  loadGstPercent,
  loadPanels,
  loadPricingClient,
  loadScanMeasures,
  loadTyreChoices,
  thresholdCategories,
} from '../lib/pricing-inputs';
import { clientSnapshot, makeQuotePdf, type PdfLog, priceQuoteBody } from '../services/quote/quotes-service';
import { upsertQuote } from '../services/quote/quotes-repository';

const consoleLog: PdfLog = {
  error: (detail, message) => console.error(message, detail),
  warn: (detail, message) => console.warn(message, detail),
};

/**
 * Demo quotes (embedded database only): a handful of the demo scans with dents get the quote an assessor would save on
 * first load (each damaged panel pdr at its category, scratches spot, one product), priced by the engine as the
 * quote route prices them, so the quotes list, the invoice and the portal's 'completed' column are not empty. Each gets
 * its PDF as a save makes it (`makeQuotePdf`), so 'View Quote' and the list's PDF action work on a fresh start.
 */
export async function seedQuotes(
  db: Database,
  storage: FileStorage = createStorage(loadConfig()),
  opts: { count?: number; log?: PdfLog } = {},
) {
  const { count = 8, log = consoleLog } = opts;
  const scans = await sql<{ id: number; agent_id: number; client_id: number; type: string }>`
    select s.id, s.agent_id, s.client_id, s.type from scans s
    where s.client_id is not null and s.dent_count > 0 and s.status = 'uploaded'
      and not exists (select 1 from quotes q where q.scan_id = s.id)
    order by s.scanned_at desc limit ${count}`.execute(db);
  if (!scans.rows.length) return 0;
  const [panels, gst_percent, product] = await Promise.all([
    loadPanels(db),
    loadGstPercent(db),
    sql<{ id: number; name: string; price: number }>`select id, name, price from products order by id limit 1`.execute(db),
  ]);
  const user = await sql<{ id: number; name: string }>`select u.id, trim(u.first_name || ' ' || u.last_name) as name from users u
    join user_roles ur on ur.user_id = u.id join roles r on r.id = ur.role_id where r.name = 'Super Admin' order by u.id limit 1`.execute(
    db,
  );
  let made = 0;
  for (const [i, scan] of scans.rows.entries()) {
    const [client, measures, tyres] = await Promise.all([
      loadPricingClient(db, scan.client_id),
      loadScanMeasures(db, scan.id),
      loadTyreChoices(db, scan.id),
    ]);
    if (!client) continue;
    const categories = thresholdCategories(client, panels, measures);
    // One card per car panel (a car panel may sit in two car views), as the assessor quotes it.
    const items: Record<string, { repair_type?: string }> = {};
    const seen = new Set<string>();
    for (const p of panels) {
      if (!p.car_panel || seen.has(p.car_panel)) continue;
      if (!categories[p.car_panel] && !measures.damage_count.scratchs[p.car_panel]) continue;
      seen.add(p.car_panel);
      items[String(p.id)] = { repair_type: categories[p.car_panel] ? 'pdr' : undefined };
    }
    const body = quoteBody.parse({
      scan_id: scan.id,
      client_id: scan.client_id,
      type: scan.type,
      items,
      products: product.rows.length ? [{ value: product.rows[0].id, price: product.rows[0].price }] : [],
      parts: i % 2 ? ['Clips'] : [],
      metallic: i % 3 === 0 ? 1 : 0,
      aluminium: i % 4 === 0 ? 1 : 0,
      assessor_comments: i % 2 ? 'Hail damage on the upper panels.' : undefined,
    });
    const products = new Map(product.rows.map((p) => [p.id, p.name]));
    let priced;
    try {
      priced = priceQuoteBody(body, { client, panels, measures, products, gst_percent, tyres });
    } catch {
      // A demo scan whose damage no panel choice can price (e.g. a client without a complete method): skipped.
      continue;
    }
    const { id } = await upsertQuote(db, {
      scan_id: scan.id,
      agent_id: scan.agent_id,
      client_id: client.id,
      user_id: user.rows[0]?.id ?? null,
      assessor: user.rows[0]?.name ?? null,
      type: body.type,
      metallic: body.metallic === 1,
      pearl: false,
      aluminium: body.aluminium === 1,
      vehicle_type: body.vehicle_type,
      manual_check: false,
      assessor_comments: body.assessor_comments ?? null,
      items: priced.items,
      tyres: priced.tyres,
      products: priced.products,
      parts: priced.parts,
      client_snapshot: clientSnapshot(
        client,
        Object.values(priced.items).map((item) => panels.find((p) => p.id === item.panel_id)?.part_id ?? null),
      ),
      currency: client.currency,
      gst_percent,
      totals: priced.totals,
    });
    await makeQuotePdf({ db, storage }, id, log);
    made++;
  }
  return made;
}
