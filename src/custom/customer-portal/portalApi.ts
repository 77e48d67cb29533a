import { API_URL } from '../../config';
import type { PortalScan, PortalScanDetail } from '../../domain/portal';
import { forgetKioskToken, readKioskToken, storeKioskToken } from './kioskToken';

/** The header the server reads the kiosk token from (server/services/agent/kiosk.ts). */
export const KIOSK_HEADER = 'X-Kiosk-Token';

/** The portal's calls answered 401: this browser must enrol (again) with the pincode. */
export class KioskRequiredError extends Error {}
/** No portal for this agent (unknown or disabled). */
export class PortalNotFoundError extends Error {}
/** No such scan on this portal (another agent's, older than 48 hours, or none). */
export class PortalScanNotFoundError extends Error {}
/** Create Scan was throttled: `seconds` until it may be tried again. */
export class PortalThrottledError extends Error {
  constructor(readonly seconds: number) {
    super('throttled');
  }
}
/** The pincode was refused: `key` is the i18n message, `seconds` the wait when throttled. */
export class PincodeError extends Error {
  constructor(
    readonly key: 'app.portal.pincode_wrong' | 'app.portal.pincode_throttled',
    readonly seconds?: number,
  ) {
    super(key);
  }
}

export interface PortalAgent {
  id: number;
  name: string;
  primary_color: string;
  text_color: string;
  logo: string | null;
  /** Sanitised rich text (the server's allowlist). */
  blurb: string | null;
  portal_mode: 'enrolled' | 'open';
}
export type { PortalScan, PortalScanDetail };

const url = (path: string) => `${API_URL}/${path}`;
const headersFor = (agentId: string): Record<string, string> => {
  const token = readKioskToken(agentId);
  return { Accept: 'application/json', ...(token ? { [KIOSK_HEADER]: token } : {}) };
};

/** A portal call with the stored kiosk token. Not the data provider: its 401 would sign a user out; here it means "enrol". */
async function portalCall<T>(agentId: string, path: string, init: { method?: 'GET' | 'POST'; body?: unknown } = {}): Promise<T> {
  const headers = headersFor(agentId);
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(url(path), {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (res.status === 401) {
    forgetKioskToken(agentId);
    throw new KioskRequiredError();
  }
  if (res.status === 404) {
    const reply = (await res.json().catch(() => null)) as { error?: unknown } | null;
    // The model 404 names what is missing: the scan, or the agent (no portal).
    if (typeof reply?.error === 'string' && reply.error.includes('[Scan]')) throw new PortalScanNotFoundError();
    throw new PortalNotFoundError();
  }
  if (res.status === 429) throw new PortalThrottledError(Number(res.headers.get('retry-after')) || 60);
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}`);
  return (await res.json()) as T;
}
const portalGet = <T>(agentId: string, path: string) => portalCall<T>(agentId, path);
const scansPath = (agentId: string) => `scan/portal/${encodeURIComponent(agentId)}/scans`;

export const fetchPortalAgent = async (agentId: string) =>
  (await portalGet<{ data: PortalAgent }>(agentId, `agent/agents/${encodeURIComponent(agentId)}/portal`)).data;

export const fetchPortalScans = async (agentId: string) => (await portalGet<{ items: PortalScan[] }>(agentId, scansPath(agentId))).items;

/** The portal's scan page: the vehicle and its damage (docs/portal.md). */
export const fetchPortalScan = async (agentId: string, scanId: string) =>
  (await portalGet<{ data: PortalScanDetail }>(agentId, `${scansPath(agentId)}/${encodeURIComponent(scanId)}`)).data;

/** Create Scan: a manual scan (type tire, status uploaded) of the agent's default client. */
export const createPortalScan = async (agentId: string) =>
  (await portalCall<{ data: PortalScanDetail }>(agentId, scansPath(agentId), { method: 'POST', body: {} })).data;

async function postPin(path: string, body: Record<string, string>) {
  const res = await fetch(url(path), {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status === 404) throw new PortalNotFoundError();
  if (res.status === 422) throw new PincodeError('app.portal.pincode_wrong');
  if (res.status === 429) throw new PincodeError('app.portal.pincode_throttled', Number(res.headers.get('retry-after')) || undefined);
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}`);
  return (await res.json()) as { data: unknown };
}

/** Enrols this browser as the agent's kiosk: the pincode for a kiosk token, stored for the portal's calls. */
export async function enrolKiosk(agentId: string, pincode: string): Promise<void> {
  const reply = await postPin(`agent/agents/${encodeURIComponent(agentId)}/portal/enrol`, { pincode });
  const { kiosk_token, expires_at } = reply.data as { kiosk_token: string; expires_at: string };
  storeKioskToken(agentId, { token: kiosk_token, expires_at });
}

/** Go to Admin's check: true when the pincode matches. */
export async function validatePin(agentId: string, pin: string): Promise<boolean> {
  const reply = await postPin(`agent/agents/${encodeURIComponent(agentId)}/validate-pin`, { pin });
  return reply.data === true;
}
