import type { Caller, CallLog } from '../../lib/caller';
import { toCents } from '../../../src/domain/money';
import type { ReportLanguage } from '../../../src/domain/report-labels';
import {
  type DentChoice,
  type DentLevel,
  dentChoiceError,
  initialScratchRepair,
  panelApplies,
  priceQuote,
  type PricingPanel,
  scratchLineAllowed,
} from '../../../src/domain/pricing';
import type { EventFields } from '../../../src/domain/history';
import type { DataScope } from '../../../src/domain/permissions';
import type { WebhookEvent } from '../../../src/domain/webhooks';
import type { PricedQuote, QuotedPanel, SavedQuote } from '../../../src/domain/quote-model';
import { revisionDelta, savedQuoteOfJson } from '../../../src/domain/quote-revisions';
import {
  DUPLICATE_PRODUCT_MESSAGE,
  repeatedCarPanelMessage,
  repeatedCarPanels,
  repeatedProducts,
  scratchRepairError,
  unquotedDamagedPanels,
  unquotedPanelMessage,
} from '../../../src/domain/quote-rules';
import { quoteRecordOf } from '../../../src/domain/quote-wire';
import type { QuoteBody, QuoteFilters } from '../../../src/domain/quotes';
import type { Database, Executor } from '../../db/database';
import { NotFoundError, ValidationError } from '../../errors';
import { enqueueWebhooks } from '../../lib/events';
import { checkImage, isUploadedFile } from '../../lib/images';
import { loadTyreWear } from '../../lib/tyre-wear';
import type { WheelWear } from '../../../src/domain/tyre-wear';
import { wheelKey } from '../../../src/domain/vehicle-history';
import {
  loadGstPercent,
  loadPanels,
  loadPricingClient,
  loadScanMeasures,
  loadNewDamage,
  loadTyreChoices,
  type NewDamageInput,
  type PricingClientRow,
  type PricingPanelRow,
  type ScanMeasures,
  thresholdCategories,
  type TyreChoiceRow,
} from '../../lib/pricing-inputs';
import type { Signer } from '../../lib/signing';
import { type FileStorage, fileUrl } from '../../lib/storage';
import type { ExportFormat } from '../../../src/domain/scan-codes';
import type { Broadcaster } from '../../realtime/broadcaster';
import { publishQuoteChange } from './quote-events';
import { guardVersion, stampVersion } from '../../lib/versions';
import { quoteSnapshot } from './quote-versions';
import { buildQuoteExport } from './quotes-export';
import { REPORT_MAX_ROWS, storeReportFile } from '../../lib/report-file';
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
  setManualCheck,
  setQuotePdf,
  upsertQuote,
} from './quotes-repository';
import { quoteFields, recordQuoteEvent } from './history-service';
import { revokeOpenLinks } from './approvals-repository';
import { quotePdfBytes } from './quote-pdf';
import { freezeRevision, quoteRevisions, supplementChanges } from './revisions-service';
import { answeredRevision, previousRevision, restoreRevision, revisionPdfKeys, startSupplement } from './revisions-repository';

export const QUOTE_MODEL = 'Quote';
const SCAN_MODEL = 'Scan';

/** Where the quotes tell what went wrong beside the reply (a PDF, a file removal, a live event): a request's logger, the console. */
export type QuoteLog = CallLog;

/** Who acts: the signed-in user (the assessor of a save, the maker of an export). */
export interface QuoteActor {
  id: number;
  first_name: string;
  last_name: string;
  /** The Super Admin acting as this user, named in the quote's history. */
  impersonatorId?: number | null;
}

/** The caller (server/lib/caller.ts) as the quotes need it: the actor's name for the assessor, the scope, the log. */
export type QuoteCaller = Pick<Caller, 'scope' | 'log'> & { actor: QuoteActor };

/** Everything the quotes may use; each factory takes only its part. */
export interface QuoteDeps {
  db: Database;
  storage: FileStorage;
  signer: Signer;
  /** The live side, when the app has one. */
  broadcaster?: Broadcaster;
  /** Queues a webhook event in the writer's transaction (the outbox). */
  enqueue: (trx: Executor, agentId: number, event: QuoteWebhookEvent, data: unknown) => Promise<unknown>;
}

export type QuoteWebhookEvent = Extract<WebhookEvent, `quote.${string}`>;

/** The production queue: the webhook outbox. */
export const webhookQueue: QuoteDeps['enqueue'] = enqueueWebhooks;

/** What pricing a quote body reads (server/lib/pricing-inputs.ts), loaded in the save's transaction. */
export interface QuotePricingContext {
  client: PricingClientRow;
  panels: PricingPanelRow[];
  measures: ScanMeasures;
  products: Map<number, string>;
  gst_percent: number;
  /** The agent's tyre choices on the scan (absent: none). */
  tyres?: readonly TyreChoiceRow[];
  /** The scan's gains over its vehicle's previous scan when only the new damage is priced (`measures` are then those gains). */
  newDamage?: NewDamageInput | null;
  /** Each wheel's wear across the vehicle's scans: a Recheck Next Visit line names its projected day. */
  tyreWear?: readonly WheelWear[];
}

/**
 * The quote's items, products and parts checked against the scan, the catalogue and the client by the quote rules
 * (src/domain/quote-rules.ts, src/domain/pricing.ts), then priced by the engine with the scan's tyre choices: the
 * priced quote in cents, as it is stored. Throws 422 with a field map.
 */
export function priceQuoteBody(body: QuoteBody, ctx: QuotePricingContext): PricedQuote {
  const errors: Record<string, string> = {};
  const byId = new Map(ctx.panels.map((p) => [String(p.id), p]));
  const computed = thresholdCategories(ctx.client, ctx.panels, ctx.measures);
  const quoted: { panel: PricingPanelRow; pricing: PricingPanel; computed: DentLevel | null }[] = [];
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
    const scratchProblem = scratchRepairError(item.scratch_repair_type, scratches);
    if (scratchProblem) errors[`items.${key}.scratch_repair_type`] = scratchProblem;
    // Conventional, push to paint and replacement repaint the panel: no scratch line beside them (the choice is dropped).
    const scratch = scratchLineAllowed(choice) ? (item.scratch_repair_type ?? initialScratchRepair(scratches)) : null;
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
  const shown = ctx.panels.map((p) => ({ id: p.id, carPanel: p.car_panel, label: p.label, applies: panelApplies(p, body.vehicle_type) }));
  for (const p of unquotedDamagedPanels(shown, ctx.measures.damage_count, new Set(Object.keys(body.items))))
    errors[`items.${p.id}`] = unquotedPanelMessage(p.label);
  const priced = quoted.filter((q) => q.pricing.dent.repair_type !== null || q.pricing.scratch !== null);
  for (const q of repeatedCarPanels(priced.map((q) => ({ id: q.panel.id, carPanel: q.panel.car_panel, label: q.panel.label }))))
    errors[`items.${q.id}`] = repeatedCarPanelMessage(q.label);
  body.products.forEach((p, i) => {
    if (!ctx.products.has(p.value)) errors[`products.${i}.value`] = 'The selected product is invalid';
  });
  for (const i of repeatedProducts(body.products.map((p) => p.value)))
    if (!errors[`products.${i}.value`]) errors[`products.${i}.value`] = DUPLICATE_PRODUCT_MESSAGE;
  if (Object.keys(errors).length) throw new ValidationError(errors);

  const tyres = ctx.tyres ?? [];
  const result = priceQuote({
    client: ctx.client,
    panels: quoted.map((q) => q.pricing),
    metallic: body.metallic,
    pearl: body.pearl,
    aluminium: body.aluminium,
    vehicle_type: body.vehicle_type,
    products: body.products,
    gst_percent: ctx.gst_percent,
    tyres: tyres.map((t) => ({ row: t.row, direction: t.direction, choice: t.repair_type })),
  });
  const counts = (m: Record<string, Record<string, number>>, carPanel: string | null) => (carPanel ? (m[carPanel] ?? {}) : {});
  const panels = quoted
    .map(({ panel, computed: category }): QuotedPanel => ({
      panel_id: panel.id,
      car_panel: panel.car_panel,
      label: panel.label,
      name: panel.name,
      panel_group_id: panel.panel_group_id,
      panel_group_name: panel.panel_group_name,
      threshold_category: category,
      vehicle_type: panel.type,
      hasLargeVariant: panel.hasLargeVariant,
      dents: counts(ctx.measures.dents, panel.car_panel),
      scratchs: counts(ctx.measures.scratchs, panel.car_panel),
    }))
    .sort((a, b) => a.panel_id - b.panel_id);
  // A part is a tag: the same text twice is one part.
  const parts: typeof body.parts = [];
  for (const p of body.parts) if (!parts.some((x) => x.value === p.value)) parts.push(p);
  const nd = ctx.newDamage;
  return {
    ...result,
    metallic: body.metallic === 1,
    pearl: body.pearl === 1,
    aluminium: body.aluminium === 1,
    vehicle_type: body.vehicle_type,
    gst_percent: ctx.gst_percent,
    panels,
    tyres: tyres.map((t) => ({
      row: t.row,
      direction: t.direction,
      label: t.label,
      ...(t.repair_type === 'recheck'
        ? { projected_at: ctx.tyreWear?.find((w) => w.wheel === wheelKey(t))?.projection?.projectedAt ?? null }
        : {}),
    })),
    // The engine counts a price as typed, rounded half-up to the cent (toCents); a usable price is never negative here.
    products: body.products.map((p) => ({ value: p.value, text: ctx.products.get(p.value)!, price: toCents(p.price) })),
    parts,
    new_damage: nd
      ? {
          compared_with: nd.compared_with,
          pre_existing: nd.pre_existing.map((c) => panelLabel(ctx.panels, c, body.vehicle_type)),
          partly_pre_existing: nd.partly_pre_existing.map((c) => panelLabel(ctx.panels, c, body.vehicle_type)),
        }
      : null,
  };
}

/** A car panel's label on the quote's vehicle type (a panel with a large variant has one row per type). */
const panelLabel = (panels: readonly PricingPanelRow[], carPanel: string, vehicleType: QuoteBody['vehicle_type']) =>
  (panels.find((p) => p.car_panel === carPanel && panelApplies(p, vehicleType)) ?? panels.find((p) => p.car_panel === carPanel))?.label ??
  carPanel;

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

/**
 * The one place a saved quote gets its PDF: the invoice model of the saved quote (src/domain/invoice.ts) in the
 * agent's language, laid out by server/lib/pdf, stored, and the previous PDF removed. A failure is logged and leaves
 * the quote without a new PDF: the save itself has committed. Returns the quote with its new PDF, or as it was.
 */
export async function makeQuotePdf(deps: Pick<QuoteDeps, 'db' | 'storage'>, quote: SavedQuote, log: QuoteLog): Promise<SavedQuote> {
  const { db, storage } = deps;
  try {
    const pdf = await quotePdfBytes(storage, quote, await supplementChanges(db, quote));
    const key = await storage.put(pdf, 'application/pdf');
    await setQuotePdf(db, quote.id, key);
    if (quote.pdf_key)
      await storage.delete(quote.pdf_key).catch((err: unknown) => {
        log.warn({ err, key: quote.pdf_key }, 'could not remove a quote file');
      });
    return { ...quote, pdf_key: key, pdf_url: fileUrl(key) };
  } catch (err) {
    log.error({ err, quote: quote.id }, 'could not make the quote PDF');
    return quote;
  }
}

const removeFiles = async (storage: FileStorage, keys: (string | null | undefined)[], log: QuoteLog) => {
  for (const key of keys)
    if (key)
      await storage.delete(key).catch((err: unknown) => {
        log.warn({ err, key }, 'could not remove a quote file');
      });
};

/** The customer portal: the scan has a quote now (has_quote true: 'completed') or no more. A failure is only logged. */
async function tellPortal(deps: Pick<QuoteDeps, 'db' | 'broadcaster'>, agentId: number, scanId: number, hasQuote: boolean, log: QuoteLog) {
  const b = deps.broadcaster;
  if (!b) return;
  try {
    const card = await portalCard(deps.db, scanId);
    if (card) await b.portalScanSaved(agentId, { ...card, has_quote: hasQuote });
  } catch (err) {
    log.warn({ err, scan: scanId }, 'could not publish a quote event');
  }
}

/**
 * Saving a quote (the route, and the demo seed): checked and priced in one transaction with the scan locked, written
 * with `quote.generated` queued, read back once; then the PDF is made from that saved quote and the customer portal told.
 * `actor` null: no user saves it (the seed without users).
 */
export function quoteSaving(deps: Pick<QuoteDeps, 'db' | 'storage' | 'broadcaster' | 'enqueue'>) {
  const { db, storage } = deps;
  return async function save(
    { actor, scope, log }: Omit<QuoteCaller, 'actor'> & { actor: QuoteActor | null },
    body: QuoteBody,
  ): Promise<{ created: boolean; quote: SavedQuote }> {
    const scan = await findQuoteScan(db, body.scan_id, scope);
    if (!scan) throw new NotFoundError(SCAN_MODEL, body.scan_id);
    // The quote is priced for the scan's client; another one is refused.
    if (scan.client_id !== body.client_id) throw new ValidationError({ client_id: 'The selected client is invalid' });
    const photo = isUploadedFile(body.vehicle_photo)
      ? await checkImage(body.vehicle_photo, 'vehicle_photo', 'Vehicle Photo', { photo: true })
      : body.vehicle_photo === undefined || typeof body.vehicle_photo === 'string'
        ? null
        : (() => {
            throw new ValidationError({ vehicle_photo: 'Vehicle Photo must be an image file' });
          })();
    const photoKey = photo ? await storage.put(photo.data, photo.contentType) : undefined;
    try {
      const { quote, created, replaced } = await db.transaction().execute(async (trx) => {
        // Locked, so two saves of one scan's quote run one after the other.
        const locked = await findQuoteScan(trx, body.scan_id, scope, true);
        if (!locked) throw new NotFoundError(SCAN_MODEL, body.scan_id);
        const existing = await findQuoteIdByScan(trx, body.scan_id);
        const from = await guardVersion(trx, 'quote', existing, body.version, quoteSnapshot(trx, existing ?? 0));
        const [client, panels, scanMeasures, newDamage, gst_percent, tyres, wear, products] = await Promise.all([
          loadPricingClient(trx, body.client_id),
          loadPanels(trx),
          loadScanMeasures(trx, body.scan_id),
          body.new_damage_only === 1 ? loadNewDamage(trx, body.scan_id, scope) : null,
          loadGstPercent(trx),
          loadTyreChoices(trx, body.scan_id),
          loadTyreWear(trx, body.scan_id, scope),
          productNames(
            trx,
            body.products.map((p) => p.value),
          ),
        ]);
        if (!client) throw new ValidationError({ client_id: 'The selected client is invalid' });
        if (body.new_damage_only === 1 && !newDamage)
          throw new ValidationError({ new_damage_only: 'The scan has no previous scan of its vehicle to compare with' });
        // Only the new damage: the stored comparison's gains are priced in place of the scan's counts.
        const measures = newDamage?.measures ?? scanMeasures;
        const priced = priceQuoteBody(body, { client, panels, measures, products, gst_percent, tyres, newDamage, tyreWear: wear.wheels });
        const before = await findQuoteIdByScan(trx, body.scan_id);
        const previous = before === null ? null : await quoteFiles(trx, before);
        const prior = before === null ? null : await findQuote(trx, before);
        // A sent revision is immutable: it stays frozen (frozen now if it was sent before revisions were kept). A save
        // that changes what the customer decides on (a line, an amount, the total) or whom the estimate is for starts
        // the next supplement and revokes the link still waiting on the sent revision; any other (comments, the photo)
        // is saved in place and keeps the revision, its status and its link, as there is nothing new to ask.
        const sent = prior !== null && prior.status !== 'draft';
        if (sent) await freezeRevision(deps, trx, prior, actor?.id ?? null);
        const changed = sent && changesWhatWasSent(prior, priced, client.id);
        if (changed) await revokeOpenLinks(trx, prior.id);
        // A supplement saved back to what the customer has seen is withdrawn, rather than left a draft with nothing to
        // ask: back to the revision sent before a draft supplement (with its answer, or revoked if its link was
        // waiting), or to the latest answered revision (the links sent after it unanswered and now revoked).
        const withdrawn =
          prior !== null && (changed || prior.status === 'draft') ? await revisionSavedBackTo(trx, prior, priced, client.id) : null;
        const supplement = changed && !withdrawn;
        const partIds = priced.panels.map((i) => panels.find((p) => p.id === i.panel_id)?.part_id ?? null);
        const saved = await upsertQuote(trx, {
          scan_id: body.scan_id,
          agent_id: locked.agent_id,
          client_id: client.id,
          user_id: actor?.id ?? null,
          assessor: actor ? `${actor.first_name} ${actor.last_name}`.trim() || null : null,
          // The scan's type: the body's (sent as the spec has it) is no more than what the screen read.
          type: locked.type,
          manual_check: body.manual_check === 1,
          assessor_comments: body.assessor_comments ?? null,
          priced,
          client_snapshot: clientSnapshot(client, partIds),
          currency: client.currency,
          vehicle_photo: photoKey,
        });
        if (supplement) await startSupplement(trx, saved.id);
        if (withdrawn) await restoreRevision(trx, saved.id, withdrawn);
        await stampVersion(trx, 'quote', saved.id, from, actor?.id ?? null, quoteSnapshot(trx, saved.id));
        const quote = (await findQuote(trx, saved.id))!;
        const action = saved.created
          ? 'quote.created'
          : supplement
            ? 'quote.supplement_created'
            : withdrawn
              ? 'quote.supplement_withdrawn'
              : 'quote.saved';
        const revisionOf = (q: SavedQuote | null): EventFields =>
          (supplement || withdrawn) && q ? { revision: q.revision, status: q.status } : {};
        await recordQuoteEvent(
          trx,
          actor,
          quote,
          action,
          { ...quoteFields(prior), ...revisionOf(prior) },
          {
            ...quoteFields(quote),
            ...revisionOf(quote),
          },
        );
        // Transactional outbox: the quote and its webhook deliveries commit or roll back together.
        await deps.enqueue(trx, locked.agent_id, 'quote.generated', quoteRecordOf(quote));
        return { quote, created: saved.created, replaced: photoKey && previous?.vehicle_photo ? previous.vehicle_photo : null };
      });
      await removeFiles(storage, [replaced], log);
      const withPdf = await makeQuotePdf(deps, quote, log);
      await tellPortal(deps, scan.agent_id, scan.id, true, log);
      await publishQuoteChange(deps, withPdf, withPdf.status, log);
      return { created, quote: withPdf };
    } catch (error) {
      await removeFiles(storage, [photoKey], log);
      throw error;
    }
  };
}

/** The earlier revision a save of a supplement (a draft one, or a sent one being changed) restores, or null. */
async function revisionSavedBackTo(trx: Executor, prior: SavedQuote, priced: PricedQuote, clientId: number) {
  const draft = prior.status === 'draft';
  if (prior.revision === 0 && draft) return null;
  const candidates = [
    draft ? await previousRevision(trx, prior.id, prior.revision) : null,
    await answeredRevision(trx, prior.id, draft ? prior.revision - 1 : prior.revision),
  ];
  return candidates.find((r) => r && !changesWhatWasSent(savedQuoteOfJson(r.quote), priced, clientId)) ?? null;
}

/** Whether a save of a sent quote changes a line or an amount the customer was asked about, or the client. */
function changesWhatWasSent(prior: SavedQuote, priced: PricedQuote, clientId: number) {
  const delta = revisionDelta(prior, priced);
  return (
    delta.added.length + delta.removed.length + delta.changed.length > 0 || delta.total.difference !== 0 || prior.client_id !== clientId
  );
}

/**
 * The quotes for a caller (read with permission scan, scoped like scans; the routes check the permission and parse
 * the ids). Every method takes plain inputs (who acts, their data scope, a logger) and gives the saved quote's model;
 * the routes send it through the wire mapping (src/domain/quote-wire.ts).
 */
export function quoteRecords(deps: QuoteDeps) {
  const { db, storage } = deps;
  const visible = async (scope: DataScope, id: number) => {
    const quote = await findQuote(db, id, scope);
    if (!quote) throw new NotFoundError(QUOTE_MODEL, id);
    return quote;
  };

  return {
    async list(
      { scope }: Pick<QuoteCaller, 'scope'>,
      query: QuoteFilters & { page: number; per_page: number; sort: string; order: 'asc' | 'desc' },
    ) {
      const { page, per_page, sort, order, ...filters } = query;
      return listQuotes(db, await quoteSelection(db, scope, filters), { page, per_page, sort, order });
    },

    /** Writes the filtered quotes as a file (removed a day later) and returns a download link signed for this user. */
    async exportReport(
      { actor, scope }: Pick<QuoteCaller, 'actor' | 'scope'>,
      query: QuoteFilters & { format: ExportFormat; lang: ReportLanguage },
    ) {
      const { format, lang, ...filters } = query;
      const selection = await quoteSelection(db, scope, filters);
      if ((await countQuotesUpTo(db, selection, REPORT_MAX_ROWS)) > REPORT_MAX_ROWS)
        throw new ValidationError({
          ts: `An export holds at most ${REPORT_MAX_ROWS.toLocaleString('en-AU')} quotes: narrow the filters`,
        });
      const file = await buildQuoteExport(db, selection.where, format, lang);
      return storeReportFile(deps, 'quote_exports', actor.id, format, file);
    },

    detail: ({ scope }: Pick<QuoteCaller, 'scope'>, id: number) => visible(scope, id),

    /** The scan's quote (at most one), or null: the generation screen loads it on entry. A scan out of reach is the model's 404. */
    async search({ scope }: Pick<QuoteCaller, 'scope'>, scanId: number) {
      if (!(await findQuoteScan(db, scanId, scope))) throw new NotFoundError(SCAN_MODEL, scanId);
      const id = await findQuoteIdByScan(db, scanId, scope);
      return id === null ? null : findQuote(db, id, scope);
    },

    save: quoteSaving(deps),

    ...quoteRevisions(deps, visible),

    async remove({ actor, scope, log }: QuoteCaller, id: number) {
      const quote = await visible(scope, id);
      const files = await db.transaction().execute(async (trx) => {
        const f = await quoteFiles(trx, quote.id);
        const frozen = await revisionPdfKeys(trx, quote.id);
        await recordQuoteEvent(trx, actor, quote, 'quote.deleted');
        // Another DELETE got there first and answered 200: this one records nothing and is 404.
        if (!(await deleteQuoteRow(trx, quote.id))) throw new NotFoundError(QUOTE_MODEL, quote.id);
        return { ...f, frozen };
      });
      await removeFiles(storage, [files.vehicle_photo, files.pdf_key, ...files.frozen], log);
      await tellPortal(deps, quote.agent_id, quote.scan_id, false, log);
      await publishQuoteChange(deps, quote, 'deleted', log);
      return quote;
    },

    /** The quote check request alone (the scan page's normal viewer): no re-pricing, the figures stay as issued. */
    async setManualCheck({ actor, scope }: Pick<QuoteCaller, 'actor' | 'scope'>, id: number, on: boolean) {
      const quote = await visible(scope, id);
      await db.transaction().execute(async (trx) => {
        await setManualCheck(trx, quote.id, on);
        await recordQuoteEvent(trx, actor, quote, 'quote.check_changed', { manual_check: quote.manual_check }, { manual_check: on });
      });
      return (await findQuote(db, quote.id, scope))!;
    },

    async deleteVehiclePhoto({ actor, scope, log }: QuoteCaller, id: number) {
      const quote = await visible(scope, id);
      const files = await db.transaction().execute(async (trx) => {
        const f = await quoteFiles(trx, quote.id);
        await recordQuoteEvent(trx, actor, quote, 'quote.photo_deleted', { vehicle_photo: f?.vehicle_photo ?? null });
        await clearVehiclePhoto(trx, quote.id);
        return f;
      });
      await removeFiles(storage, [files?.vehicle_photo], log);
      return (await findQuote(db, quote.id, scope))!;
    },
  };
}
