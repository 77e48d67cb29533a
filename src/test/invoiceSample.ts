import type { InvoiceSource } from '../domain/invoice';
import { toCents } from '../domain/money';
import { priceQuote, type PricingClient, type PricingInput, type PricingPanel, type PricingTyre, tyreLineKey } from '../domain/pricing';
import type { PricedQuote } from '../domain/quote-model';
import { type QuoteInvoiceRecord, wireItemsOf, wireProductsOf, wireTotalsOf, wireTyresOf } from '../domain/quote-wire';

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
    pricing: {
      ...pricing,
      panels: [...pricing.panels, ...pricing.tyres.map((t) => ({ panel_id: tyreLineKey(t), label: t.label }))],
      products: pricing.products.map((p) => ({ text: p.text, price: toCents(p.price) })),
    },
    result: priceQuote(pricing),
    parts: ['Clip', 'Emblem'],
    comments: SAMPLE_COMMENTS,
    photo: '/api/user/files/photo.jpg',
    gst_percent: pricing.gst_percent,
    ...over,
  };
}

/** The sample quote as the engine priced it and the quote service keeps it (./quote-model): cents, with each panel's facts. */
export function samplePricedQuote(): PricedQuote {
  const pricing = samplePricing();
  return {
    ...priceQuote(pricing),
    metallic: true,
    pearl: false,
    aluminium: true,
    vehicle_type: pricing.vehicle_type,
    gst_percent: pricing.gst_percent,
    panels: pricing.panels.map((p) => ({
      panel_id: Number(p.panel_id),
      car_panel: `CP${p.panel_id}`,
      label: p.label,
      name: p.label,
      panel_group_id: 1,
      panel_group_name: 'Front',
      threshold_category: p.dent.category,
      vehicle_type: p.type,
      hasLargeVariant: p.hasLargeVariant,
      dents: {},
      scratchs: {},
    })),
    tyres: pricing.tyres.map(({ row, direction, label }) => ({ row, direction, label })),
    products: pricing.products.map((p, i) => ({ value: i + 1, text: p.text, price: toCents(p.price) })),
    parts: ['Clip', 'Emblem'].map((text) => ({ text, value: text.toLowerCase() })),
  };
}

/**
 * The sample quote as `GET quote/quotes/{id}` sends it (src/domain/quotes.ts QuoteRecord, the members the invoice
 * reads): the engine's figures in the wire's shape, as the quote service sends them.
 */
export function sampleQuoteRecord(over: Partial<QuoteInvoiceRecord> = {}): QuoteInvoiceRecord {
  const source = sampleInvoiceSource();
  const priced = samplePricedQuote();
  return {
    id: 42,
    created_at: '2026-11-21T20:00:00Z',
    updated_at: source.date,
    currency: '$',
    metallic: 1,
    pearl: 0,
    aluminium: 1,
    items: wireItemsOf(priced),
    tyres: wireTyresOf(priced),
    products: wireProductsOf(priced.products),
    parts: priced.parts,
    totals: wireTotalsOf(priced.totals),
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
