import type { InvoiceSource, QuoteInvoiceRecord } from '../domain/invoice';
import { centsToAmount } from '../domain/money';
import {
  priceQuote,
  type PricedLine,
  type PricingClient,
  type PricingInput,
  type PricingPanel,
  type PricingTyre,
  type RepairType,
  type ScratchRepairType,
  type TyreChoice,
  tyreLineKey,
} from '../domain/pricing';

/**
 * A saved quote as the invoice reads it, for the invoice model's, the PDF's and the screen's tests and the PDF bench:
 * every repair type, scratch lines in Scratch / Paint and in Conventional, a scratch choice on a replaced panel (no
 * line: the replacement repaints it), three tyre choices, two surcharges on, a large-variant panel of another vehicle
 * type, two products and two parts, the assessor's comments, a vehicle photo and GST 10 %. The figures are the engine's, worked out in src/domain/invoice.test.ts.
 */
export const sampleClient: PricingClient = {
  sc_metallic: 10,
  sc_pearl: 7.5,
  sc_p2p: 1,
  tyre_repair: 35,
  tyre_replace: 189.9,
  prices: {
    dent: {
      '7': {
        light: 100,
        medium: 150,
        heavy: 200,
        severe: 250,
        oversize: 300,
        p2p: 80,
        aluminium: 12.5,
        conventional: 450.5,
        replacement: 1200,
      },
    },
    scratch: { '7': { spot: 60, paint: 220.25, conventional: 310 } },
  },
};

/** The engine's input of the sample quote, with the labels and product names the invoice prints. */
export interface SamplePricing extends PricingInput {
  panels: (PricingPanel & { label: string })[];
  tyres: (PricingTyre & { label: string })[];
  products: { text: string; price: number }[];
}

export function samplePricing(): SamplePricing {
  return {
    client: sampleClient,
    panels: [
      {
        panel_id: 11,
        label: 'Bonnet',
        part_id: 7,
        type: 'D',
        hasLargeVariant: false,
        dent: { repair_type: 'pdr', category: 'heavy' },
        scratch: 'paint',
      },
      {
        panel_id: 12,
        label: 'Roof',
        part_id: 7,
        type: 'D',
        hasLargeVariant: false,
        dent: { repair_type: 'conventional', category: null },
        scratch: null,
      },
      {
        panel_id: 13,
        label: 'Left Front Door',
        part_id: 7,
        type: 'D',
        hasLargeVariant: false,
        dent: { repair_type: 'p2p', category: null },
        scratch: null,
      },
      {
        panel_id: 14,
        label: 'Boot Lid',
        part_id: 7,
        type: 'D',
        hasLargeVariant: false,
        dent: { repair_type: 'replacement', category: null },
        scratch: 'paint',
      },
      {
        panel_id: 15,
        label: 'Roof (Large)',
        part_id: 7,
        type: 'L',
        hasLargeVariant: true,
        dent: { repair_type: 'pdr', category: 'light' },
        scratch: null,
      },
      {
        panel_id: 16,
        label: 'Right Rear Door',
        part_id: 7,
        type: 'D',
        hasLargeVariant: false,
        dent: { repair_type: 'pdr', category: 'light' },
        scratch: 'conventional',
      },
    ],
    tyres: [
      { row: 1, direction: 'L', choice: 'replace', label: 'FRONT LEFT' },
      { row: 1, direction: 'R', choice: 'repair', label: 'FRONT RIGHT' },
      { row: 2, direction: 'R', choice: 'recheck', label: 'REAR RIGHT' },
    ],
    metallic: 1,
    pearl: 0,
    aluminium: 1,
    vehicle_type: 'D',
    products: [
      { text: 'Paint protection', price: 49.95 },
      { text: 'Detailing', price: 100 },
    ],
    gst_percent: 10,
  };
}

/** The assessor's comments of the sample quote: two lines. */
export const SAMPLE_COMMENTS = 'Hail damage on the roof and bonnet.\nCustomer to bring the car back on Monday.';

export function sampleInvoiceSource(over: Partial<InvoiceSource> = {}): InvoiceSource {
  const pricing = samplePricing();
  return {
    number: 42,
    date: '2026-11-21T23:30:00Z',
    language: 'en',
    currency: '$',
    agent: {
      name: 'Dent Doctors',
      logo: '/api/user/files/logo.png',
      phone: '0412345678',
      abn: '51824460393',
      address: '1 Collins St, Melbourne VIC 3000',
      email: 'quotes@dentdoctors.example',
    },
    vehicle: {
      registration: 'ABC123',
      make: 'Toyota',
      model: 'Corolla',
      colour: 'White',
      body_type: 'Sedan',
      vin: null,
      scanned_at: '2026-11-20T03:15:00Z',
    },
    assessor: 'Alex Assessor',
    client: 'Acme Insurance',
    // The invoice prints a wheel's line under its label, as a panel's under the panel's.
    pricing: { ...pricing, panels: [...pricing.panels, ...pricing.tyres.map((t) => ({ panel_id: tyreLineKey(t), label: t.label }))] },
    result: priceQuote(pricing),
    parts: ['Clip', 'Emblem'],
    comments: SAMPLE_COMMENTS,
    photo: '/api/user/files/photo.jpg',
    gst_percent: pricing.gst_percent,
    ...over,
  };
}

/**
 * The sample quote as `GET quote/quotes/{id}` sends it (src/domain/quotes.ts QuoteRecord, the members the invoice
 * reads): the engine's figures stored in currency units, keyed by panel id, as the quote service saves them.
 */
export function sampleQuoteRecord(over: Partial<QuoteInvoiceRecord> = {}): QuoteInvoiceRecord {
  const source = sampleInvoiceSource();
  const pricing = samplePricing();
  const { lines, totals } = priceQuote(pricing);
  const fees = (l: PricedLine | undefined) => ({
    status: l?.status ?? null,
    repair_fee: centsToAmount(l?.repair_fee ?? 0),
    metalic_fee: centsToAmount(l?.metallic_fee ?? 0),
    pearl_fee: centsToAmount(l?.pearl_fee ?? 0),
    lineTotal: centsToAmount(l?.line_total ?? 0),
  });
  // The wire's parts carry their id (the lower-cased text) too.
  const parts = ['Clip', 'Emblem'].map((text) => ({ text, value: text.toLowerCase() }));
  const items: QuoteInvoiceRecord['items'] = {};
  for (const panel of pricing.panels) {
    const dent = lines.find((l) => l.panel_id === panel.panel_id && l.kind === 'dent');
    const scratch = lines.find((l) => l.panel_id === panel.panel_id && l.kind === 'scratch');
    items[String(panel.panel_id)] = {
      panel_id: Number(panel.panel_id),
      label: panel.label,
      category: dent?.category ?? null,
      repair_type: (dent?.repair_type as RepairType | undefined) ?? null,
      aluminium_fee: centsToAmount(dent?.aluminium_fee ?? 0),
      ...fees(dent),
      scratch: scratch ? { repair_type: scratch.repair_type as ScratchRepairType, ...fees(scratch) } : null,
    };
  }
  const tyres = pricing.tyres.map((t) => {
    const line = lines.find((l) => l.panel_id === tyreLineKey(t))!;
    return {
      row: t.row,
      direction: t.direction,
      label: t.label,
      repair_type: line.repair_type as TyreChoice,
      status: line.status,
      repair_fee: centsToAmount(line.repair_fee),
      lineTotal: centsToAmount(line.line_total),
    };
  });
  return {
    id: 42,
    created_at: '2026-11-21T20:00:00Z',
    updated_at: source.date,
    currency: '$',
    metallic: 1,
    pearl: 0,
    aluminium: 1,
    items,
    tyres,
    products: pricing.products,
    parts,
    totals: {
      pdr: centsToAmount(totals.pdr),
      conventional: centsToAmount(totals.conventional),
      p2p: centsToAmount(totals.p2p),
      replacement: centsToAmount(totals.replacement),
      paint: centsToAmount(totals.paint),
      tyre: centsToAmount(totals.tyre),
      product: centsToAmount(totals.product),
      sub_total: centsToAmount(totals.sub_total),
      tax: centsToAmount(totals.tax),
      grant_total: centsToAmount(totals.grand_total),
    },
    assessor: 'Alex Assessor',
    assessor_comments: SAMPLE_COMMENTS,
    vehicle_photo: '/api/user/files/photo.jpg',
    gst_percent: 10,
    client: { name: 'Acme Insurance' },
    agent: { ...source.agent, language: 'en' },
    scan: {
      licensePlate: 'ABC123',
      make: 'Toyota',
      model: 'Corolla',
      carColor: 'White',
      body_type: 'Sedan',
      timestamp: '2026-11-20T03:15:00Z',
    },
    ...over,
  };
}
