import type { FastifyRequest } from 'fastify';
import type { DataScope } from '../../src/domain/permissions';
import { UnauthorizedError } from '../errors';
import type { AuthUser } from '../plugins/auth';
import type { Revocation } from '../realtime/broadcaster';
import { revokeLiveAfterReply } from '../realtime/revocations';

/**
 * Who calls a service, as plain data: a route builds it from the request, and a worker, the seed or a script builds
 * its own, so a service never sees the request.
 */
export interface Caller {
  actor: AuthUser;
  /** The rows the caller may see (the request's data scope, narrowed by the X_SNG_* selection). */
  scope: DataScope;
  /** Closes the live connections a change no longer authorises, once the change is answered. */
  revokeLive: (r: Revocation) => void;
  /** Where the caller's warnings go (a request's logger, whose lines carry its id). */
  log: { warn: (details: object, message: string) => void };
}

/** The caller of a signed-in route: its user, data scope, live revocations and logger. */
export function callerOf(req: FastifyRequest): Caller {
  if (!req.user) throw new UnauthorizedError();
  return { actor: req.user, scope: req.scope, revokeLive: (r) => revokeLiveAfterReply(req, r), log: req.log };
}

/** The sign-in token of a caller's session ('device' callers have none: an API key is no session). */
export const sessionOf = (caller: Pick<Caller, 'actor'>): number => {
  if (caller.actor.tokenId == null) throw new UnauthorizedError();
  return caller.actor.tokenId;
};
