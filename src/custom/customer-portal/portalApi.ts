import { API_URL } from '../../config';
import { forgetKioskToken, readKioskToken, storeKioskToken } from './kioskToken';

/** The header the server reads the kiosk token from (server/services/agent/kiosk.ts). */
export const KIOSK_HEADER = 'X-Kiosk-Token';

/** The portal's calls answered 401: this browser must enrol (again) with the pincode. */
export class KioskRequiredError extends Error {}
/** No portal for this agent (unknown or disabled). */
export class PortalNotFoundError extends Error {}
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
  portal_mode: 'enrolled' | 'open';
}
export interface PortalScan {
  id: number;
  licensePlate: string | null;
  timestamp: string;
  has_quote: boolean;
  status: string;
  type: string;
}

const url = (path: string) => `${API_URL}/${path}`;
const headersFor = (agentId: string): Record<string, string> => {
  const token = readKioskToken(agentId);
  return { Accept: 'application/json', ...(token ? { [KIOSK_HEADER]: token } : {}) };
};

/** A portal GET with the stored kiosk token. Not the data provider: its 401 would sign a user out; here it means "enrol". */
async function portalGet<T>(agentId: string, path: string): Promise<T> {
  const res = await fetch(url(path), { headers: headersFor(agentId) });
  if (res.status === 401) {
    forgetKioskToken(agentId);
    throw new KioskRequiredError();
  }
  if (res.status === 404) throw new PortalNotFoundError();
  if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
  return (await res.json()) as T;
}

export const fetchPortalAgent = async (agentId: string) =>
  (await portalGet<{ data: PortalAgent }>(agentId, `agent/agents/${encodeURIComponent(agentId)}/portal`)).data;

export const fetchPortalScans = async (agentId: string) =>
  (await portalGet<{ items: PortalScan[] }>(agentId, `scan/portal/${encodeURIComponent(agentId)}/scans`)).items;

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

/** Go to Admin's check (spec 1 §2): true when the pincode matches. */
export async function validatePin(agentId: string, pin: string): Promise<boolean> {
  const reply = await postPin(`agent/agents/${encodeURIComponent(agentId)}/validate-pin`, { pin });
  return reply.data === true;
}
