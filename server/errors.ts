import type { ConflictInfo } from '../src/domain/versions';

/** Typed errors; the error handler turns each into the wire contract's `{error}` with its status. */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly body: string | string[] | Record<string, string>,
  ) {
    super(typeof body === 'string' ? body : JSON.stringify(body));
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'Unauthenticated.') {
    super(401, message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = 'This action is unauthorized.') {
    super(403, message);
  }
}
/** The front end keys on this exact text. */
export class NotFoundError extends AppError {
  constructor(model: string, id: string | number) {
    super(404, `No query results for model [${model}] ${id}`);
  }
}
export class ValidationError extends AppError {
  constructor(fields: Record<string, string>) {
    super(422, fields);
  }
}
export class TooManyRequestsError extends AppError {
  constructor(
    message: string,
    public readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}
/** A save made from an older version (server/lib/versions.ts): the reply carries `conflict` beside the text. */
export class ConflictError extends AppError {
  constructor(
    message: string,
    public readonly conflict: ConflictInfo,
  ) {
    super(409, message);
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(413, message);
  }
}
