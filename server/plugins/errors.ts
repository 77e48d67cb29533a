import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, TooManyRequestsError } from '../errors';

/** Field name from a validation issue path like `/body/name` or `/name`. */
const fieldOf = (instancePath = '') =>
  instancePath
    .split('/')
    .filter(Boolean)
    .filter((p) => !['body', 'querystring', 'params', 'headers'].includes(p))
    .join('.') || 'body';

/** One error shape for the whole API (Infisical's error-handler habit). */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof TooManyRequestsError) reply.header('retry-after', String(error.retryAfterSeconds));
    if (error instanceof AppError) return reply.status(error.statusCode).send({ error: error.body });
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const key = fieldOf(issue.instancePath);
        fields[key] ??= issue.message ?? `${key} is invalid`;
      }
      return reply.status(422).send({ error: fields });
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
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ error: 'Server Error', requestId: request.id });
  });
});
