import type { InvoiceSource } from '../domain/invoice';
import { priceQuote, type PricingClient } from '../domain/pricing';

/**
 * A saved quote as the invoice reads it, for the invoice model's, the PDF's and the screen's tests and the PDF bench:
 * every repair type, a scratch line in two sections, two surcharges on, a large-variant panel of another vehicle type,
 * two products and two parts. The figures are the engine's, worked out in src/domain/invoice.test.ts.
 */
export const sampleClient: PricingClient = {
  sc_metallic: 10,
  sc_pearl: 7.5,
  sc_p2p: 1,
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

export function sampleInvoiceSource(over: Partial<InvoiceSource> = {}): InvoiceSource {
  const pricing: InvoiceSource['pricing'] = {
    client: sampleClient,
    panels: [
      {
        panel_id: 11,
        label: 'Bonnet',
        part_id: 7,
        type: 'D',
        hasLargeVariant: false,
        dent: { repair_type: 'pdr', category: 'heavy' },
        scratch: null,
      },
      {
        panel_id: 12,
        label: 'Roof',
        part_id: 7,
        type: 'D',
        hasLargeVariant: false,
        dent: { repair_type: 'conventional', category: null },
        scratch: 'conventional',
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
    pricing,
    result: priceQuote(pricing),
    parts: ['Clip', 'Emblem'],
    ...over,
  };
}
