import { can, isUnrestricted, type DataScope, type Principal } from '../../src/domain/permissions';

/** Channel names (see broadcaster.ts for what travels on each). */
export const SCAN_CHANNEL = 'private-scan';
export const agentScanChannel = (agentId: number) => `private-scan.agent.${agentId}`;
export const clientScanChannel = (clientId: number) => `private-scan.client.${clientId}`;
export const agentClientScanChannel = (agentId: number, clientId: number) => `private-scan.agent.${agentId}.client.${clientId}`;
/** The portal's public channel: followed only while the agent's portal is open (no enrolment). */
export const portalChannel = (agentId: number) => `agent.${agentId}.scans`;
/** The portal's private channel (Echo `private('agent.{id}.scans')`): signed for an enrolled kiosk's token, or for anyone when open. */
export const kioskChannel = (agentId: number) => `private-agent.${agentId}.scans`;

/** Who has a scan or its quote open for editing (Echo `private('editing.{scanId}')`): `presence` heartbeats. */
export const editingChannel = (scanId: number) => `private-editing.${scanId}`;
/** The event on it: `{record: 'scan' | 'quote', user: {id, name}, state: 'here' | 'gone'}`. */
export const PRESENCE_EVENT = 'presence';

/** At most this many channels are offered to one browser (a user with many agents and clients). */
export const MAX_SCOPED_CHANNELS = 100;

export type ChannelKind =
  | { kind: 'scan' }
  | { kind: 'scan-scope'; agentId: number | null; clientId: number | null }
  | { kind: 'portal'; agentId: number; private: boolean }
  | { kind: 'editing'; scanId: number };

const id = '([1-9][0-9]{0,9})';
const scopeRe = new RegExp(`^private-scan(?:\\.agent\\.${id})?(?:\\.client\\.${id})?$`);
const portalRe = new RegExp(`^(private-)?agent\\.${id}\\.scans$`);
const editingRe = new RegExp(`^private-editing\\.${id}$`);

/** What a channel name means here; null for any name this application does not publish on. */
export function parseChannel(name: string): ChannelKind | null {
  if (name === SCAN_CHANNEL) return { kind: 'scan' };
  const s = scopeRe.exec(name);
  if (s && (s[1] || s[2])) return { kind: 'scan-scope', agentId: s[1] ? Number(s[1]) : null, clientId: s[2] ? Number(s[2]) : null };
  const p = portalRe.exec(name);
  if (p) return { kind: 'portal', agentId: Number(p[2]), private: !!p[1] };
  const e = editingRe.exec(name);
  if (e) return { kind: 'editing', scanId: Number(e[1]) };
  return null;
}

/** The per-scope channels a scan event also goes to, so restricted users of an external server can follow it. */
export function scopedScanChannels(row: { agent_id: number | null; client_id: number | null }): string[] {
  const out: string[] = [];
  if (row.agent_id != null) out.push(agentScanChannel(row.agent_id));
  if (row.client_id != null) out.push(clientScanChannel(row.client_id));
  if (row.agent_id != null && row.client_id != null) out.push(agentClientScanChannel(row.agent_id, row.client_id));
  return out;
}

/**
 * May this user be given the signature for a private channel? `filtered` says the server delivers
 * `private-scan` per subscriber scope (embedded); without it, only an unrestricted user may hold that channel.
 * A per-scope channel must lie wholly inside the user's scope.
 */
export function mayAuthorize(channel: ChannelKind, user: Principal, scope: DataScope, filtered: boolean): boolean {
  if (!can(user, 'scan')) return false;
  if (channel.kind === 'scan') return filtered || isUnrestricted(scope);
  // The scan must also be one the user may see: checked against the database by the auth route.
  if (channel.kind === 'editing') return true;
  if (channel.kind !== 'scan-scope') return false;
  // A dimension the channel names must be one the user may see; one it leaves open carries every row along it.
  const fits = (id: number | null, allowed: number[] | null) => allowed === null || (id !== null && allowed.includes(id));
  return fits(channel.agentId, scope.agents) && fits(channel.clientId, scope.clients);
}

/** The scan channels a browser should subscribe to for this scope. */
export function scanChannelsFor(scope: DataScope, filtered: boolean): string[] {
  if (filtered || isUnrestricted(scope)) return [SCAN_CHANNEL];
  const { agents, clients } = scope;
  let out: string[];
  if (agents !== null && clients === null) out = agents.map(agentScanChannel);
  else if (agents === null && clients !== null) out = clients.map(clientScanChannel);
  else out = (agents ?? []).flatMap((a) => (clients ?? []).map((c) => agentClientScanChannel(a, c)));
  return out.slice(0, MAX_SCOPED_CHANNELS);
}
