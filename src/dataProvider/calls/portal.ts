import type { PortalScan, PortalScanDetail } from '../../domain/portal';
import { forgetKioskToken, readKioskToken, storeKioskToken } from '../../session';
import { retryAfterOf } from '../errors';
import type { Request, RequestOptions, Service } from '../http';

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

const statusOf = (error: unknown) =>
  typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' ? error.status : 0;

/**
 * A kiosk has no sign-in: no bearer token and no header selection, only the stored kiosk token. The portal's refusals
 * become its own errors, so react-admin's checkError never reads a 401 here as a signed-in user's expired token.
 */
const kiosk = (agentId: string): RequestOptions => {
  const token = readKioskToken(agentId);
  return { token: null, selection: false, headers: token ? { [KIOSK_HEADER]: token } : {} };
};

async function kioskCall<T>(request: Request, agentId: string, service: Service, path: string, options: RequestOptions = {}): Promise<T> {
  try {
    return await request<T>(service, path, { ...kiosk(agentId), ...options });
  } catch (error) {
    const status = statusOf(error);
    if (status === 401) {
      forgetKioskToken(agentId);
      throw new KioskRequiredError();
    }
    // The model 404 names what is missing: the scan, or the agent (no portal).
    if (status === 404)
      throw error instanceof Error && error.message.includes('[Scan]') ? new PortalScanNotFoundError() : new PortalNotFoundError();
    if (status === 429) throw new PortalThrottledError(retryAfterOf(error) ?? 60);
    throw error;
  }
}

async function pinCall(request: Request, path: string, body: Record<string, string>) {
  try {
    return await request<unknown>('agent', path, { method: 'POST', body, token: null, selection: false });
  } catch (error) {
    const status = statusOf(error);
    if (status === 404) throw new PortalNotFoundError();
    if (status === 422) throw new PincodeError('app.portal.pincode_wrong');
    if (status === 429) throw new PincodeError('app.portal.pincode_throttled', retryAfterOf(error));
    throw error;
  }
}

const agentPath = (agentId: string, rest: string) => `agents/${encodeURIComponent(agentId)}/${rest}`;
const scansPath = (agentId: string) => `portal/${encodeURIComponent(agentId)}/scans`;

/** The customer portal's calls (docs/portal.md), each with the agent's stored kiosk token. */
export const portalCalls = (request: Request) => ({
  /** The agent's portal: name, colours, logo, blurb. */
  portalAgent: (agentId: string) => kioskCall<PortalAgent>(request, agentId, 'agent', agentPath(agentId, 'portal')),
  /** The agent's scans of the portal's window, newest first. */
  portalScans: async (agentId: string) => (await kioskCall<{ items: PortalScan[] }>(request, agentId, 'scan', scansPath(agentId))).items,
  /** The portal's scan page: the vehicle and its damage. */
  portalScan: (agentId: string, scanId: string) =>
    kioskCall<PortalScanDetail>(request, agentId, 'scan', `${scansPath(agentId)}/${encodeURIComponent(scanId)}`),
  /** Create Scan: a manual scan (type tire, status uploaded) of the agent's default client. */
  portalCreateScan: (agentId: string) =>
    kioskCall<PortalScanDetail>(request, agentId, 'scan', scansPath(agentId), { method: 'POST', body: {} }),
  /** Enrols this browser as the agent's kiosk: the pincode for a kiosk token, stored for the portal's calls. */
  portalEnrol: async (agentId: string, pincode: string) => {
    const { kiosk_token, expires_at } = (await pinCall(request, agentPath(agentId, 'portal/enrol'), { pincode })) as {
      kiosk_token: string;
      expires_at: string;
    };
    storeKioskToken(agentId, { token: kiosk_token, expires_at });
  },
  /** Go to Admin's check: true when the pincode matches. */
  portalValidatePin: async (agentId: string, pin: string) => (await pinCall(request, agentPath(agentId, 'validate-pin'), { pin })) === true,
});
