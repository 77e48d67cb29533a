import type { QuoteApprovalRecord, QuoteStatus } from './quote-approval';
import type { z } from 'zod';
import type { DateInput } from './format';
import type { NewDamageBasis } from './new-damage';
import type { Cents } from './money';
import type { DentLevel, PricedLine, QuotePricing, VehicleType } from './pricing';
import type { QuoteAgentRecord, QuoteClientRecord, QuoteScanRecord } from './quotes';

/**
 * A quote as the engine priced it and the quote service keeps it: every figure in cents, as `priceQuote` gave it,
 * beside what each line is about (the panel, the wheel, the product). The quote service stores this, the invoice
 * model (./invoice) and the PDF render it; the wire's names and decimals are only ./quote-wire's business.
 */

/** A quoted panel: the catalogue's facts and the scan's counts at the time of the quote. */
export interface QuotedPanel {
  panel_id: number;
  car_panel: string | null;
  label: string;
  name: string;
  panel_group_id: number;
  panel_group_name: string | null;
  /** The panel's computed category from the scan's counts (the client's method); null without dents. */
  threshold_category: DentLevel | null;
  vehicle_type: VehicleType;
  hasLargeVariant: boolean;
  dents: Record<string, number>;
  scratchs: Record<string, number>;
}

/** A wheel the agent chose for (its line, keyed by tyreLineKey, holds the choice and the figures). */
export interface QuotedWheel {
  row: number;
  direction: 'L' | 'R';
  label: string;
  /** A Recheck Next Visit wheel: the day its tread is projected to reach the legal minimum (an estimate), when known. */
  projected_at?: string | null;
}

/** A product of the quote: the catalogue's product, its name, and the price the assessor gave, in cents. */
export interface QuotedProduct {
  value: number;
  text: string;
  price: Cents;
}

/** A part of the quote: its text and its id (the lower-cased text); parts carry no price. */
export interface QuotedPart {
  text: string;
  value: string;
}

/** What a save prices and stores: the choices' context and the engine's lines and totals. */
export interface PricedQuote extends QuotePricing {
  metallic: boolean;
  pearl: boolean;
  aluminium: boolean;
  vehicle_type: VehicleType;
  gst_percent: number;
  /** The quoted panels, in panel order; their lines are the engine's (`lines`, keyed by panel_id). */
  panels: QuotedPanel[];
  /** The wheels of the Tyres section, in wheel order. */
  tyres: QuotedWheel[];
  products: QuotedProduct[];
  parts: QuotedPart[];
  /** Set when only the new damage is priced: the panels' counts above are then the gains over the previous scan. */
  new_damage?: NewDamageBasis | null;
}

/** The agent block, the scan and the client snapshot, as the record's schemas declare them. */
export type QuoteAgent = z.infer<typeof QuoteAgentRecord>;
export type QuoteScan = z.infer<typeof QuoteScanRecord>;
/** The client as it was priced (surcharges, tyre prices, currency, contact). */
export type SavedQuoteClient = z.infer<typeof QuoteClientRecord>;

/** What the invoice reads of a saved quote (the screen has it from the wire, the PDF from the save). */
export interface InvoiceQuote extends Pick<PricedQuote, 'metallic' | 'pearl' | 'aluminium' | 'lines' | 'totals' | 'parts' | 'new_damage'> {
  id: number;
  created_at: DateInput;
  updated_at?: DateInput;
  currency: string | null;
  /** The panels and wheels the lines name, with their labels. */
  panels: readonly Pick<QuotedPanel, 'panel_id' | 'label'>[];
  tyres: readonly QuotedWheel[];
  products: readonly Pick<QuotedProduct, 'text' | 'price'>[];
  assessor: string | null;
  assessor_comments: string | null;
  /** The vehicle photo's URL. */
  vehicle_photo: string | null;
  gst_percent: number | null;
  client: { name: string } | null;
  agent: { name: string; language?: string | null } & Partial<Pick<QuoteAgent, 'logo' | 'phone' | 'address' | 'email' | 'abn'>>;
  scan: Pick<QuoteScan, 'licensePlate' | 'make' | 'model' | 'carColor'> & {
    body_type?: string | null;
    vin?: string | null;
    timestamp: DateInput;
  };
}

/** A saved quote as the quote service reads it back: the priced quote, its scan, agent and client, its files. */
export interface SavedQuote extends PricedQuote {
  id: number;
  /** Moves on with every save (src/domain/versions.ts). */
  version: number;
  status: QuoteStatus;
  /** What the customer is sent: 0 the original estimate, n the supplement Sn (src/domain/quote-revisions.ts). */
  revision: number;
  /** The latest approval link sent, as Quote Generation shows it. */
  approval: QuoteApprovalRecord | null;
  scan_id: number;
  client_id: number;
  client_name: string | null;
  agent_id: number;
  agent_name: string | null;
  type: string;
  currency: string;
  created_at: Date;
  updated_at: Date;
  assessor: string | null;
  user_id: number | null;
  assessor_comments: string | null;
  manual_check: boolean;
  /** The vehicle photo's URL and the PDF's URL and stored key, null when none. */
  vehicle_photo: string | null;
  pdf_url: string | null;
  pdf_key: string | null;
  client: SavedQuoteClient;
  agent: QuoteAgent;
  scan: QuoteScan;
}

/** A panel's dent and scratch lines (a panel has at most one of each). */
export function panelLines(lines: readonly PricedLine[], panelId: number) {
  let dent: PricedLine | undefined;
  let scratch: PricedLine | undefined;
  for (const l of lines)
    if (l.panel_id === panelId) {
      if (l.kind === 'dent') dent = l;
      else if (l.kind === 'scratch') scratch = l;
    }
  return { dent, scratch };
}

/** 'S1', 'S2'… for a supplement (./quote-revisions.ts); null for the original estimate (revision 0). */
export const supplementLabel = (revision: number) => (revision > 0 ? `S${revision}` : null);
