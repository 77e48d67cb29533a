import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { centsToAmount } from '../../../src/domain/money';
import {
  type DentChoice,
  type DentLevel,
  dentChoiceError,
  initialScratchRepair,
  priceQuote,
  type PricedLine,
  type PricingPanel,
  scratchLineAllowed,
  SUBTOTALS,
  tyreLineKey,
  type TyreChoice,
} from '../../../src/domain/pricing';
import { buildInvoice, invoiceSourceOfQuote } from '../../../src/domain/invoice';
import {
  DUPLICATE_PRODUCT_MESSAGE,
  type QuoteBody,
  type QuoteFilters,
  type QuoteItem,
  type QuoteRecordType,
  type QuoteTyre,
} from '../../../src/domain/quotes';
import type { Database } from '../../db/database';
import { NotFoundError, ValidationError } from '../../errors';
import { enqueueWebhooks } from '../../lib/events';
import { checkImage, isUploadedFile } from '../../lib/images';
import { pdfLogo, pdfPhoto } from '../../lib/pdf/logo';
import { renderQuotePdf } from '../../lib/pdf/quote';
import {
  loadGstPercent,
  loadPanels,
  loadPricingClient,
  loadScanMeasures,
  loadTyreChoices,
  type PricingClientRow,
  type PricingPanelRow,
  type ScanMeasures,
  thresholdCategories,
  type TyreChoiceRow,
} from '../../lib/pricing-inputs';
import type { Signer } from '../../lib/signing';
import { type FileStorage, signedFileUrl } from '../../lib/storage';
import type { Broadcaster } from '../../realtime/broadcaster';
import { buildQuoteExport, QUOTE_EXPORT_MAX_ROWS, type QuoteExportFormat } from './quotes-export';
import {
  clearVehiclePhoto,
  countQuotesUpTo,
  deleteQuoteRow,
  findQuote,
  findQuoteIdByScan,
  findQuoteScan,
  listQuotes,
  portalCard,
  productNames,
  quoteFiles,
  quoteSelection,
  recordQuoteExport,
  setManualCheck,
  setQuotePdf,
  upsertQuote,
} from './quotes-repository';

export const QUOTE_MODEL = 'Quote';
const SCAN_MODEL = 'Scan';

/** What the quotes need: the database, the file store, the link signer, the live side when the app has one. */
export interface QuoteDeps {
  db: Database;
  storage: FileStorage;
  signer: Signer;
  broadcaster?: Broadcaster;
  log: FastifyBaseLogger;
}

/** Ids in paths are positive integers; anything else names no row, so it is the model's 404. */
const parseId = (raw: string, model: string) => {
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new NotFoundError(model, raw);
  return Number(raw);
};

const amount = centsToAmount;

/**
 * The quote's items, products and parts checked against the scan, the catalogue and the client, then priced by the
 * engine (src/domain/pricing.ts) with the scan's tyre choices: the browser's figures are never read. Throws 422 with
 * a field map.
 */
export function priceQuoteBody(
  body: QuoteBody,
  ctx: {
    client: PricingClientRow;
    panels: PricingPanelRow[];
    measures: ScanMeasures;
    products: Map<number, string>;
    gst_percent: number;
    /** The agent's tyre choices on the scan (absent: none). */
    tyres?: readonly TyreChoiceRow[];
  },
) {
  const errors: Record<string, string> = {};
  const byId = new Map(ctx.panels.map((p) => [String(p.id), p]));
  const computed = thresholdCategories(ctx.client, ctx.panels, ctx.measures);
  const quoted: { panel: PricingPanelRow; pricing: PricingPanel; computed: DentLevel | null }[] = [];
  // The counts are per car panel, and a car panel may sit in two car views (a guard in Front and in Right): priced once.
  const pricedCarPanels = new Set<string>();
  for (const [key, item] of Object.entries(body.items)) {
    const panel = byId.get(key);
    if (!panel) {
      errors[`items.${key}`] = 'The selected panel is invalid';
      continue;
    }
    const category = panel.car_panel ? (computed[panel.car_panel] ?? null) : null;
    const repairType = item.repair_type ?? null;
    // A pdr choice without its category takes the computed one (moving to pdr sets it).
    const choice: DentChoice = {
      repair_type: repairType,
      category: repairType === 'pdr' ? (item.category ?? category) : null,
    };
    const problem = dentChoiceError(choice, category, ctx.client);
    if (problem) errors[`items.${key}.${problem.field}`] = problem.message;
    const scratches = panel.car_panel ? (ctx.measures.damage_count.scratchs[panel.car_panel] ?? 0) : 0;
    if (item.scratch_repair_type && scratches === 0)
      errors[`items.${key}.scratch_repair_type`] = 'A panel without scratches has no scratch repair';
    // Conventional, push to paint and replacement repaint the panel: no scratch line beside them (the choice is dropped).
    const scratch = scratchLineAllowed(choice) ? (item.scratch_repair_type ?? initialScratchRepair(scratches)) : null;
    if (panel.car_panel && (choice.repair_type !== null || scratch !== null)) {
      if (pricedCarPanels.has(panel.car_panel)) errors[`items.${key}`] = `${panel.label} is already quoted in another car view`;
      pricedCarPanels.add(panel.car_panel);
    }
    quoted.push({
      panel,
      computed: category,
      pricing: {
        panel_id: panel.id,
        part_id: panel.part_id,
        type: panel.type,
        hasLargeVariant: panel.hasLargeVariant,
        dent: choice,
        scratch,
      },
    });
  }
  const seen = new Set<number>();
  body.products.forEach((p, i) => {
    if (!ctx.products.has(p.value)) errors[`products.${i}.value`] = 'The selected product is invalid';
    else if (seen.has(p.value)) errors[`products.${i}.value`] = DUPLICATE_PRODUCT_MESSAGE;
    seen.add(p.value);
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);

  const priced = priceQuote({
    client: ctx.client,
    panels: quoted.map((q) => q.pricing),
    metallic: body.metallic,
    pearl: body.pearl,
    aluminium: body.aluminium,
    vehicle_type: body.vehicle_type,
    products: body.products,
    gst_percent: ctx.gst_percent,
    tyres: (ctx.tyres ?? []).map((t) => ({ row: t.row, direction: t.direction, choice: t.repair_type })),
  });
  const linesOf = new Map<string, { dent?: PricedLine; scratch?: PricedLine; tyre?: PricedLine }>();
  for (const line of priced.lines) {
    const entry = linesOf.get(String(line.panel_id)) ?? {};
    entry[line.kind] = line;
    linesOf.set(String(line.panel_id), entry);
  }
  const tyres: QuoteTyre[] = (ctx.tyres ?? []).map((t) => {
    const line = linesOf.get(tyreLineKey(t))!.tyre!;
    return {
      row: t.row,
      direction: t.direction,
      label: t.label,
      repair_type: line.repair_type as TyreChoice,
      status: line.status,
      repair_fee: amount(line.repair_fee),
      lineTotal: amount(line.line_total),
    };
  });
  const items: Record<string, QuoteItem> = {};
  for (const { panel, computed: category } of quoted) {
    const { dent, scratch } = linesOf.get(String(panel.id)) ?? {};
    const counts = (m: Record<string, Record<string, number>>) => (panel.car_panel ? (m[panel.car_panel] ?? {}) : {});
    items[String(panel.id)] = {
      panel_id: panel.id,
      car_panel: panel.car_panel,
      label: panel.label,
      name: panel.name,
      panel_group_id: panel.panel_group_id,
      panel_group_name: panel.panel_group_name,
      type: 'dent',
      threshold_category: category,
      category: dent?.category ?? null,
      repair_type: (dent?.repair_type as QuoteItem['repair_type']) ?? null,
      status: dent?.status ?? null,
      repair_fee: amount(dent?.repair_fee ?? 0),
      aluminium_fee: amount(dent?.aluminium_fee ?? 0),
      metalic_fee: amount(dent?.metallic_fee ?? 0),
      pearl_fee: amount(dent?.pearl_fee ?? 0),
      lineTotal: amount(dent?.line_total ?? 0),
      vehicle_type: panel.type,
      hasLargeVariant: panel.hasLargeVariant,
      dents: counts(ctx.measures.dents),
      scratchs: counts(ctx.measures.scratchs),
      scratch: scratch
        ? {
            repair_type: scratch.repair_type as NonNullable<QuoteItem['scratch']>['repair_type'],
            status: scratch.status,
            repair_fee: amount(scratch.repair_fee),
            metalic_fee: amount(scratch.metallic_fee),
            pearl_fee: amount(scratch.pearl_fee),
            lineTotal: amount(scratch.line_total),
          }
        : null,
    };
  }
  const t = priced.totals;
  const totals = {
    ...(Object.fromEntries(SUBTOTALS.map((key) => [key, amount(t[key])])) as Record<(typeof SUBTOTALS)[number], number>),
    product: amount(t.product),
    sub_total: amount(t.sub_total),
    tax: amount(t.tax),
    grant_total: amount(t.grand_total),
  } satisfies QuoteRecordType['totals'];
  const products = body.products.map((p) => ({ value: p.value, text: ctx.products.get(p.value)!, price: p.price }));
  // A part is a tag: the same text twice is one part.
  const parts: typeof body.parts = [];
  for (const p of body.parts) if (!parts.some((x) => x.value === p.value)) parts.push(p);
  return { items, tyres, totals, products, parts };
}

/** What the quote keeps of its client: surcharges, currency, contact, and the matrix rows of its panels' parts, as they were. */
export function clientSnapshot(client: PricingClientRow, partIds: (number | null)[]) {
  const pick = <T>(rows: Record<string, T>) =>
    Object.fromEntries(partIds.filter((id) => id !== null && rows[String(id)]).map((id) => [String(id), rows[String(id)]]));
  return {
    id: client.id,
    name: client.name,
    currency: client.currency,
    sc_metallic: client.sc_metallic,
    sc_pearl: client.sc_pearl,
    sc_p2p: client.sc_p2p,
    tyre_repair: client.tyre_repair,
    tyre_replace: client.tyre_replace,
    calculation_method: client.calculation_method,
    sc_threshold: client.sc_threshold,
    weighted_no: client.weighted_no,
    prices: { dent: pick(client.prices.dent), scratch: pick(client.prices.scratch) },
    logo: client.logo,
    phone: client.phone,
    address: client.address,
    email: client.email,
    abn: client.abn,
  };
}

/** Where a PDF failure is told: the request's logger, or the console for the seed. */
export interface PdfLog {
  error(detail: object, message: string): void;
  warn(detail: object, message: string): void;
}

/**
 * The one place a saved quote gets its PDF (the save, and the demo seed): the invoice model of the stored record
 * (src/domain/invoice.ts) in the agent's language, laid out by server/lib/pdf, stored, and the previous PDF removed. A
 * failure is logged and leaves the quote without a PDF (or with the previous one): the save itself has committed.
 * Returns whether a PDF was made.
 */
export async function makeQuotePdf(deps: { db: Database; storage: FileStorage }, quoteId: number, log: PdfLog): Promise<boolean> {
  const { db, storage } = deps;
  try {
    const quote = await findQuote(db, quoteId);
    if (!quote) return false;
    const invoice = buildInvoice(invoiceSourceOfQuote(quote));
    const [logo, photo] = await Promise.all([pdfLogo(storage, quote.agent.logo), pdfPhoto(storage, quote.vehicle_photo)]);
    const pdf = await renderQuotePdf(invoice, { logo, photo });
    const key = await storage.put(pdf, 'application/pdf');
    await setQuotePdf(db, quoteId, key);
    if (quote.pdf_path)
      await storage.delete(quote.pdf_path).catch((err: unknown) => {
        log.warn({ err, key: quote.pdf_path }, 'could not remove a quote file');
      });
    return true;
  } catch (err) {
    log.error({ err, quote: quoteId }, 'could not make the quote PDF');
    return false;
  }
}

/**
 * The quotes for a signed-in caller (permission scan, scoped like scans): every method takes the request
 * (its user, data scope and logger). Saving checks, prices with the engine, writes the quote and queues
 * `quote.generated` in one transaction, then makes the PDF and tells the customer portal.
 */
export function quoteRecords(deps: QuoteDeps) {
  const { db, storage } = deps;
  const visible = async (req: FastifyRequest, rawId: string) => {
    const id = parseId(rawId, QUOTE_MODEL);
    const quote = await findQuote(db, id, req.scope);
    if (!quote) throw new NotFoundError(QUOTE_MODEL, id);
    return quote;
  };
  const removeFiles = async (keys: (string | null | undefined)[], log: FastifyBaseLogger) => {
    for (const key of keys)
      if (key)
        await storage.delete(key).catch((err: unknown) => {
          log.warn({ err, key }, 'could not remove a quote file');
        });
  };

  const generateQuotePdf = (quoteId: number, log: FastifyBaseLogger) => makeQuotePdf({ db, storage }, quoteId, log);

  /** The customer portal: the scan has a quote now (has_quote true: 'completed') or no more. A failure is only logged. */
  async function tellPortal(agentId: number, scanId: number, hasQuote: boolean, log: FastifyBaseLogger) {
    const b = deps.broadcaster;
    if (!b) return;
    try {
      const card = await portalCard(db, scanId);
      if (card) await b.portalScanSaved(agentId, { ...card, has_quote: hasQuote });
    } catch (err) {
      log.warn({ err, scan: scanId }, 'could not publish a quote event');
    }
  }

  return {
    async list(req: FastifyRequest, query: QuoteFilters & { page: number; per_page: number; sort: string; order: 'asc' | 'desc' }) {
      const { page, per_page, sort, order, ...filters } = query;
      return listQuotes(db, await quoteSelection(db, req.scope, filters), { page, per_page, sort, order });
    },

    /** Writes the filtered quotes as a file (removed a day later) and returns a download link signed for this user. */
    async exportReport(req: FastifyRequest, query: QuoteFilters & { format: QuoteExportFormat }) {
      const { format, ...filters } = query;
      const selection = await quoteSelection(db, req.scope, filters);
      if ((await countQuotesUpTo(db, selection, QUOTE_EXPORT_MAX_ROWS)) > QUOTE_EXPORT_MAX_ROWS)
        throw new ValidationError({
          ts: `An export holds at most ${QUOTE_EXPORT_MAX_ROWS.toLocaleString('en-AU')} quotes: narrow the filters`,
        });
      const file = await buildQuoteExport(db, selection.where, format);
      const key = await storage.put(file.data, file.contentType);
      await recordQuoteExport(db, key, req.user!.id, format, file.count);
      return { url: signedFileUrl(deps.signer, key, req.user!.id) };
    },

    detail: visible,

    /** The scan's quote (at most one), or null: the generation screen loads it on entry. A scan out of reach is the model's 404. */
    async search(req: FastifyRequest, scanId: number) {
      if (!(await findQuoteScan(db, scanId, req.scope))) throw new NotFoundError(SCAN_MODEL, scanId);
      const id = await findQuoteIdByScan(db, scanId, req.scope);
      return id === null ? null : findQuote(db, id, req.scope);
    },

    async save(req: FastifyRequest, body: QuoteBody) {
      const scan = await findQuoteScan(db, body.scan_id, req.scope);
      if (!scan) throw new NotFoundError(SCAN_MODEL, body.scan_id);
      // The quote is priced for the scan's client; another one is refused.
      if (scan.client_id !== body.client_id) throw new ValidationError({ client_id: 'The selected client is invalid' });
      const photo = isUploadedFile(body.vehicle_photo)
        ? await checkImage(body.vehicle_photo, 'vehicle_photo', 'Vehicle Photo')
        : body.vehicle_photo === undefined || typeof body.vehicle_photo === 'string'
          ? null
          : (() => {
              throw new ValidationError({ vehicle_photo: 'Vehicle Photo must be an image file' });
            })();
      const photoKey = photo ? await storage.put(photo.data, photo.contentType) : undefined;
      try {
        const { id, created, replaced } = await db.transaction().execute(async (trx) => {
          // Locked, so two saves of one scan's quote run one after the other.
          const locked = await findQuoteScan(trx, body.scan_id, req.scope, true);
          if (!locked) throw new NotFoundError(SCAN_MODEL, body.scan_id);
          const [client, panels, measures, gst_percent, tyres, products] = await Promise.all([
            loadPricingClient(trx, body.client_id),
            loadPanels(trx),
            loadScanMeasures(trx, body.scan_id),
            loadGstPercent(trx),
            loadTyreChoices(trx, body.scan_id),
            productNames(
              trx,
              body.products.map((p) => p.value),
            ),
          ]);
          if (!client) throw new ValidationError({ client_id: 'The selected client is invalid' });
          const priced = priceQuoteBody(body, { client, panels, measures, products, gst_percent, tyres });
          const before = await findQuoteIdByScan(trx, body.scan_id);
          const previous = before === null ? null : await quoteFiles(trx, before);
          const partIds = Object.values(priced.items).map((i) => panels.find((p) => p.id === i.panel_id)?.part_id ?? null);
          const user = req.user!;
          const saved = await upsertQuote(trx, {
            scan_id: body.scan_id,
            agent_id: locked.agent_id,
            client_id: client.id,
            user_id: user.id,
            assessor: `${user.first_name} ${user.last_name}`.trim() || null,
            type: body.type,
            metallic: body.metallic === 1,
            pearl: body.pearl === 1,
            aluminium: body.aluminium === 1,
            vehicle_type: body.vehicle_type,
            manual_check: body.manual_check === 1,
            assessor_comments: body.assessor_comments ?? null,
            items: priced.items,
            tyres: priced.tyres,
            products: priced.products,
            parts: priced.parts,
            client_snapshot: clientSnapshot(client, partIds),
            currency: client.currency,
            gst_percent,
            totals: priced.totals,
            vehicle_photo: photoKey,
          });
          const record = await findQuote(trx, saved.id);
          // Transactional outbox: the quote and its webhook deliveries commit or roll back together.
          await enqueueWebhooks(trx, locked.agent_id, 'quote.generated', record);
          return { ...saved, replaced: photoKey && previous?.vehicle_photo ? previous.vehicle_photo : null };
        });
        await removeFiles([replaced], req.log);
        await generateQuotePdf(id, req.log);
        await tellPortal(scan.agent_id, scan.id, true, req.log);
        return { created, quote: (await findQuote(db, id, req.scope))! };
      } catch (error) {
        await removeFiles([photoKey], req.log);
        throw error;
      }
    },

    async remove(req: FastifyRequest, rawId: string) {
      const quote = await visible(req, rawId);
      const files = await db.transaction().execute(async (trx) => {
        const f = await quoteFiles(trx, quote.id);
        await deleteQuoteRow(trx, quote.id);
        return f;
      });
      await removeFiles([files?.vehicle_photo, files?.pdf_key], req.log);
      await tellPortal(quote.agent_id, quote.scan_id, false, req.log);
      return quote;
    },

    /** The quote check request alone (the scan page's normal viewer): no re-pricing, the figures stay as issued. */
    async setManualCheck(req: FastifyRequest, rawId: string, on: boolean) {
      const quote = await visible(req, rawId);
      await setManualCheck(db, quote.id, on);
      return (await findQuote(db, quote.id, req.scope))!;
    },

    async deleteVehiclePhoto(req: FastifyRequest, rawId: string) {
      const quote = await visible(req, rawId);
      const files = await db.transaction().execute(async (trx) => {
        const f = await quoteFiles(trx, quote.id);
        await clearVehiclePhoto(trx, quote.id);
        return f;
      });
      await removeFiles([files?.vehicle_photo], req.log);
      return (await findQuote(db, quote.id, req.scope))!;
    },
  };
}
