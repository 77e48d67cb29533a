import type { FastifyRequest } from 'fastify';
import type { DataScope } from '../../src/domain/permissions';
import { UnauthorizedError } from '../errors';
import type { AuthUser } from '../plugins/auth';
import type { Revocation } from '../realtime/broadcaster';
import { revokeLiveAfterReply } from '../realtime/revocations';

/** Where a service call's own log lines go: the request's logger (its lines carry the request id) or a worker's. */
export interface CallLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Who calls a service, as plain input: the acting user, the rows they may see, the call's log, and how to close the
 * live connections a change no longer authorises. A route builds it from the request; a worker, the seed or a script
 * builds its own, so a service never sees the request.
 */
export interface Caller {
  actor: AuthUser;
  /** The rows the caller may see (the request's data scope, narrowed by the X_SNG_* selection). */
  scope: DataScope;
  log: CallLog;
  /** Closes the live connections a change no longer authorises, once the change is answered. */
  revokeLive: (r: Revocation) => void;
}

/** The caller a route hands its service: the request's user (signed in, or the API key's), scope, logger and revocations. */
export const callerOf = (req: FastifyRequest): Caller => ({
  actor: req.user!,
  scope: req.scope,
  log: req.log,
  revokeLive: (r) => revokeLiveAfterReply(req, r),
});

/** The sign-in token of a caller's session ('device' callers have none: an API key is no session). */
export const sessionOf = (caller: Pick<Caller, 'actor'>): number => {
  if (caller.actor.tokenId == null) throw new UnauthorizedError();
  return caller.actor.tokenId;
};
