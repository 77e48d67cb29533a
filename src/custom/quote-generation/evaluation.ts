import { DENT_LEVELS, type DentLevel, type PricingClient } from '../../domain/pricing';
import type { Measures, ProductOption, QuotePanel, SavedQuoteChoices } from './quoteForm';

/**
 * Reads the replies the screen starts from (spec 3 §7): `GET scans/{id}/evaluate` (measures, client, scanInfo) and
 * `POST quotes/search` (the scan's quote, if any). The one place that knows their shape.
 */

export interface ScanInfo {
  id: number;
  type: string;
  licensePlate: string;
  timestamp: string;
  agent_id: number | null;
  agent_name: string;
  client_name: string;
  /** The scan's damage report, when one exists (the 'Vehicle Damage Report' card). */
  pdf_url: string | null;
}

export interface QuoteClient extends PricingClient {
  id: number;
  name: string;
  currency: string;
}

export interface Evaluation {
  scan: ScanInfo;
  client: QuoteClient;
  panels: QuotePanel[];
  measures: Measures;
  /** The products the client offers on its quotes, with their catalogue price. */
  products: ProductOption[];
  /** The client's parts, as names. */
  parts: string[];
  /** GST_PERCENT (PRICING.md: default 10 when the reply has none). */
  gstPercent: number;
}

/** The quote loaded on entry: its id (to update it, delete its photo) and its stored choices. */
export interface SavedQuote extends SavedQuoteChoices {
  id: number;
  vehicle_photo?: string | null;
  vehicle_photo_url?: string | null;
}

export const DEFAULT_GST_PERCENT = 10;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
      ? Number(v)
      : null;
const isLevel = (v: unknown): v is DentLevel => (DENT_LEVELS as readonly unknown[]).includes(v);

function panelOf(raw: unknown): QuotePanel | null {
  const p = obj(raw);
  const id = num(p.id ?? p.panel_id);
  if (id === null) return null;
  const type = p.type === 'L' || p.type === 'XL' ? p.type : 'D';
  const category = p.thresholdCategory ?? p.category;
  return {
    id,
    panel_group_id: num(p.panel_group_id) ?? 0,
    label: str(p.label) || str(p.name),
    carPanel: str(p.carPanel ?? p.car_panel) || null,
    part_id: num(p.part_id),
    type,
    hasLargeVariant: p.hasLargeVariant === true || p.hasLargeVariant === 1,
    thresholdCategory: isLevel(category) ? category : null,
  };
}

function productOf(raw: unknown): ProductOption | null {
  const p = obj(raw);
  const value = str(p.value ?? p.id);
  if (!value) return null;
  return { value, text: str(p.text ?? p.name), price: num(p.price) ?? 0 };
}

/** The evaluation reply as the screen uses it; null when it lacks the scan or the client. */
export function toEvaluation(reply: unknown): Evaluation | null {
  const r = obj(reply);
  const client = obj(r.client);
  const scan = obj(r.scanInfo);
  const scanId = num(scan.id);
  const clientId = num(client.id);
  if (scanId === null || clientId === null) return null;
  const panelList = Array.isArray(client.panels) ? client.panels : Array.isArray(r.panels) ? r.panels : [];
  return {
    scan: {
      id: scanId,
      type: str(scan.type) || 'arch',
      licensePlate: str(scan.licensePlate),
      timestamp: str(scan.timestamp),
      agent_id: num(scan.agent_id),
      agent_name: str(scan.agent_name),
      client_name: str(scan.client_name) || str(client.name),
      pdf_url: str(scan.pdf_url) || null,
    },
    client: {
      id: clientId,
      name: str(client.name),
      currency: str(client.currency) || '$',
      sc_metallic: num(client.sc_metallic),
      sc_pearl: num(client.sc_pearl),
      sc_p2p: client.sc_p2p === true || client.sc_p2p === 1,
      prices: obj(client.prices),
    },
    panels: panelList.map(panelOf).filter((p): p is QuotePanel => p !== null),
    measures: obj(r.measures),
    products: (Array.isArray(client.products) ? client.products : []).map(productOf).filter((p): p is ProductOption => p !== null),
    parts: (Array.isArray(client.parts) ? client.parts : [])
      .map((p) => (typeof p === 'string' ? p : str(obj(p).name ?? obj(p).text)))
      .filter(Boolean),
    gstPercent: num(r.gst_percent ?? client.gst_percent) ?? DEFAULT_GST_PERCENT,
  };
}

/** The reply of `POST quotes/search`: the scan's quote, or null when it has none. */
export function toSavedQuote(reply: unknown): SavedQuote | null {
  const r = obj(Array.isArray(reply) ? reply[0] : reply);
  const id = num(r.id);
  return id === null ? null : { ...r, id };
}
