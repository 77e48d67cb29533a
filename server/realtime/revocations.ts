import type { FastifyRequest } from 'fastify';
import type { Revocation } from './broadcaster';

const pending = new WeakMap<FastifyRequest, { tokens: Set<number>; users: Set<number>; portals: Set<number> }>();

/**
 * Asks for the live connections `r` no longer authorises to be closed on every instance, once this request has
 * replied with success: after its transaction committed and after the checked-token caches were told to clear, so a
 * socket that reconnects is signed with what now holds (realtime plugin, onResponse).
 */
export function revokeLiveAfterReply(req: FastifyRequest, r: Revocation) {
  let p = pending.get(req);
  if (!p) pending.set(req, (p = { tokens: new Set(), users: new Set(), portals: new Set() }));
  for (const id of r.tokens ?? []) p.tokens.add(id);
  for (const id of r.users ?? []) p.users.add(id);
  for (const id of r.portals ?? []) p.portals.add(id);
}

/** What this request asked to revoke (once: it is forgotten), or null. */
export function takeRevocation(req: FastifyRequest): Revocation | null {
  const p = pending.get(req);
  if (!p) return null;
  pending.delete(req);
  return { tokens: [...p.tokens], users: [...p.users], portals: [...p.portals] };
}
