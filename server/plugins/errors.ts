import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { type MessageKey, messageKeyOf, messages } from '../../src/domain/messages';
import { AppError, ConflictError, TooManyRequestsError } from '../errors';

/** Field name from a validation issue path like `/body/name` or `/name`. */
const fieldOf = (instancePath = '') =>
  instancePath
    .split('/')
    .filter(Boolean)
    .filter((p) => !['body', 'querystring', 'params', 'headers'].includes(p))
    .join('.') || 'body';

/**
 * A 422 field map as the wire contract has it (`{error: {field: text}}`); for a client asking with
 * `X-Message-Keys: 1` (the app does), `messages: {field: {key, params}}` beside it for each text a
 * domain rule made. The text stays either way, so a client reading only `error` sees no change.
 */
export function fieldErrorReply(fields: Record<string, string>, withKeys = true) {
  if (!withKeys) return { error: fields };
  const keys: Record<string, MessageKey> = {};
  for (const [field, text] of Object.entries(fields)) {
    const key = messageKeyOf(text);
    if (key) keys[field] = key;
  }
  return Object.keys(keys).length ? { error: fields, messages: keys } : { error: fields };
}

/**
 * A refusal's message (`{error: text}`); for a client asking with `X-Message-Keys: 1`, `message: {key, params}`
 * beside it when a domain rule made the text, so the app says it in the user's language.
 */
function messageReply(body: unknown, withKeys: boolean) {
  const key = withKeys && typeof body === 'string' ? messageKeyOf(body) : undefined;
  return key ? { error: body, message: key } : { error: body };
}

/** Seconds a client is told to wait while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const UNREACHABLE_TEXT =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect/;

/**
 * True when `error` says the database cannot be reached (refused, dropped, shutting down or starting up), as opposed
 * to a query the database refused: PostgreSQL's admin_shutdown, crash_shutdown and cannot_connect_now (57P01-57P03), its
 * connection exceptions (class 08), and the driver's and the socket's own words for a lost connection.
 */
export function isDatabaseUnreachable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 3) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || /^57P0[123]$/.test(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (UNREACHABLE_TEXT.test(error.message)) return true;
  if (error instanceof AggregateError && error.errors.some((e) => isDatabaseUnreachable(e, depth + 1))) return true;
  return isDatabaseUnreachable(error.cause, depth + 1);
}

const isFieldMap = (body: unknown): body is Record<string, string> => typeof body === 'object' && body !== null && !Array.isArray(body);

/** A field's key as its name in a message: `per_page` → 'Per page', `items.3.price` → 'Price'; `q` is the search. */
const labelOf = (key: string) => {
  const last =
    key
      .split('.')
      .filter((k) => !/^\d+$/.test(k))
      .pop() ?? key;
  if (last === 'q') return 'Search';
  const words = last
    .replace(/_/g, ' ')
    .replace(/(?<=[a-z])(?=[A-Z])/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * An issue's message. A schema's own message stands; zod's default wording ('Too big: expected string to have <=200
 * characters', 'Invalid option: expected one of …'), left where a schema gave none, is worded as the product words a
 * field's rule, naming the field, in the catalogue's keyed texts so a Japanese screen shows it in Japanese.
 */
function wordedIssue(issue: { keyword?: string; message?: string; params?: Record<string, unknown> }, key: string): string {
  const message = issue.message ?? '';
  if (message && !/^(Too big|Too small|Invalid option|Invalid input|Invalid value)\b/.test(message)) return message;
  const label = labelOf(key);
  const p = issue.params ?? {};
  const bound = Number(p.maximum ?? p.minimum);
  switch (issue.keyword) {
    case 'too_big':
      return p.origin === 'string'
        ? messages.maxLength(label, bound)
        : p.origin === 'array'
          ? messages.maxItems(label, bound)
          : messages.atMost(label, bound);
    case 'too_small':
      return p.origin === 'string'
        ? messages.minLength(label, bound)
        : p.origin === 'array'
          ? messages.minItems(label, bound)
          : messages.min(label, bound, false);
    case 'invalid_value':
      return messages.choice(label);
    default:
      return messages.invalid(label);
  }
}

/** One error shape for the whole API (Infisical's error-handler habit). */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof TooManyRequestsError) reply.header('retry-after', String(error.retryAfterSeconds));
    const withKeys = request.headers['x-message-keys'] === '1';
    if (error instanceof ConflictError) return reply.status(409).send({ error: error.message, conflict: error.conflict });
    if (error instanceof AppError) {
      const field422 = error.statusCode === 422 && isFieldMap(error.body);
      return reply.status(error.statusCode).send(field422 ? fieldErrorReply(error.body, withKeys) : messageReply(error.body, withKeys));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const key = fieldOf(issue.instancePath);
        fields[key] ??= wordedIssue(issue, key);
      }
      return reply.status(422).send(fieldErrorReply(fields, withKeys));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause?.issues }, 'response did not match its schema');
      return reply.status(500).send({ error: 'Server Error', requestId: request.id });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ error: 'Too many requests. Please slow down.' });
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, too large, unsupported media type): their message is safe to show.
      const field = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'body' : null;
      return reply.status(status === 400 ? 422 : status).send({ error: field ? { [field]: error.message } : error.message });
    }
    if (isDatabaseUnreachable(error)) {
      request.log.warn({ err: error }, 'database unreachable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return reply.status(503).send({ error: 'The service is briefly unavailable. Please try again shortly.', requestId: request.id });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ error: 'Server Error', requestId: request.id });
  });
});
