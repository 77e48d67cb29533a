/**
 * The kiosk token of each agent's portal, kept in this browser's local storage (`kioskToken.<agentId>`) until it
 * expires or the server refuses it (a new pincode).
 */
export interface StoredKiosk {
  token: string;
  expires_at: string;
}

const keyOf = (agentId: string) => `kioskToken.${agentId}`;

export function readKioskToken(agentId: string, now = Date.now()): string | null {
  let stored: unknown;
  try {
    stored = JSON.parse(localStorage.getItem(keyOf(agentId)) ?? 'null');
  } catch {
    return null;
  }
  if (typeof stored !== 'object' || stored === null) return null;
  const { token, expires_at } = stored as Partial<StoredKiosk>;
  if (typeof token !== 'string' || typeof expires_at !== 'string' || !(Date.parse(expires_at) > now)) return null;
  return token;
}

export const storeKioskToken = (agentId: string, kiosk: StoredKiosk) => localStorage.setItem(keyOf(agentId), JSON.stringify(kiosk));
export const forgetKioskToken = (agentId: string) => localStorage.removeItem(keyOf(agentId));
