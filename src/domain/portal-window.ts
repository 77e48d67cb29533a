/** The customer portal's window (the agent's last 48 hours) and the most cards it lists. No zod: the browser imports it. */
export const PORTAL_HOURS = 48;
export const PORTAL_MAX_ROWS = 200;
