import type { FastifyRequest } from 'fastify';
import type { DataScope } from '../../src/domain/permissions';
import type { AuthUser } from '../plugins/auth';

/** Where a service call's own log lines go: the request's logger (its lines carry the request id) or a worker's. */
export interface CallLog {
  warn(obj: object, msg: string): void;
}

/** Who calls a service, as plain input: the acting user, the rows they may see, and the call's log. */
export interface Caller {
  actor: AuthUser;
  scope: DataScope;
  log: CallLog;
}

/** The caller a route hands its service: the request's user (signed in, or the API key's), scope and logger. */
export const callerOf = (req: FastifyRequest): Caller => ({ actor: req.user!, scope: req.scope, log: req.log });
