import { sql } from 'kysely';
import { onePerCarPanel } from '../../src/domain/quote-rules';
import { quoteBody } from '../../src/domain/quotes';
import { loadConfig } from '../config';
import type { Database } from '../db/database';
import { ValidationError } from '../errors';
import { loadPanels, loadPricingClient, loadScanMeasures, thresholdCategories } from '../lib/pricing-inputs';
import { createStorage, type FileStorage } from '../lib/storage';
import { type QuoteLog, quoteSaving } from '../services/quote/quotes-service';

const consoleLog: QuoteLog = {
  error: (detail, message) => console.error(message, detail),
  warn: (detail, message) => console.warn(message, detail),
};

/**
 * Demo quotes (embedded database only): a handful of the demo scans with dents get the quote an assessor would save on
 * first load (each damaged panel pdr at its category, scratches spot, one product), priced by the engine as the
 * quote route prices them (through the same save, `quoteSaving`), so the quotes list, the invoice and the portal's
 * 'completed' column are not empty. Each gets its PDF as a save makes it, so 'View Quote' and the list's PDF action work on a
 * fresh start.
 */
export async function seedQuotes(
  db: Database,
  storage: FileStorage = createStorage(loadConfig()),
  opts: { count?: number; log?: QuoteLog } = {},
) {
  const { count = 8, log = consoleLog } = opts;
  const scans = await sql<{ id: number; agent_id: number; client_id: number; type: string }>`
    select s.id, s.agent_id, s.client_id, s.type from scans s
    where s.client_id is not null and s.dent_count > 0 and s.status = 'uploaded'
      and not exists (select 1 from quotes q where q.scan_id = s.id)
    order by s.scanned_at desc limit ${count}`.execute(db);
  if (!scans.rows.length) return 0;
  const [panels, product] = await Promise.all([
    loadPanels(db),
    sql<{ id: number; name: string; price: number }>`select id, name, price from products order by id limit 1`.execute(db),
  ]);
  const user = await sql<{ id: number; first_name: string; last_name: string }>`select u.id, u.first_name, u.last_name from users u
    join user_roles ur on ur.user_id = u.id join roles r on r.id = ur.role_id where r.name = 'Super Admin' order by u.id limit 1`.execute(
    db,
  );
  // Demo quotes tell no webhook receiver: the demo agents' endpoints are placeholders.
  const save = quoteSaving({ db, storage, enqueue: async () => {} });
  const caller = { actor: user.rows[0] ?? null, scope: { agents: null, clients: null }, log };
  let made = 0;
  for (const [i, scan] of scans.rows.entries()) {
    const [client, measures] = await Promise.all([loadPricingClient(db, scan.client_id), loadScanMeasures(db, scan.id)]);
    if (!client) continue;
    const categories = thresholdCategories(client, panels, measures);
    // One card per car panel (a car panel may sit in two car views), as the assessor quotes it.
    const damaged = panels.filter((p) => p.car_panel && (categories[p.car_panel] || measures.damage_count.scratchs[p.car_panel]));
    const items: Record<string, { repair_type?: string }> = {};
    for (const p of onePerCarPanel(damaged.map((p) => ({ ...p, carPanel: p.car_panel }))))
      items[String(p.id)] = { repair_type: categories[p.car_panel!] ? 'pdr' : undefined };
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
    try {
      await save(caller, body);
    } catch (error) {
      // A demo scan whose damage no panel choice can price (e.g. a client without a complete method): skipped.
      if (error instanceof ValidationError) continue;
      throw error;
    }
    made++;
  }
  return made;
}
