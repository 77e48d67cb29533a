import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Config } from './config';
import type { Database } from './db/database';
import { backgroundPlugin } from './lib/background';
import { createPgBus, localBus } from './lib/pg-bus';
import { pgRateLimitStore } from './lib/rate-limit-store';
import { authPlugin } from './plugins/auth';
import { databasePlugin } from './plugins/database';
import { compressPlugin } from './plugins/compress';
import { pageCachePlugin } from './plugins/page-cache';
import { loadDefinitions } from './lib/definitions';
import type { ResourceDefinition } from '../src/resources/define';
import { errorsPlugin } from './plugins/errors';
import { securityHeadersPlugin } from './plugins/security-headers';
import { spaPlugin } from './plugins/spa';
import { realtimePlugin } from './realtime';
import { agentService } from './services/agent';
import { emailService } from './services/email';
import { createMailer, type Mailer } from './lib/mail-outbox';
import { serializeRequest } from './lib/log-redaction';
import { loadSigner } from './lib/signing';
import { uploadLimitsOf } from './lib/multipart';
import { createReplySerializer } from './lib/serializer';
import { createStorage, type FileStorage } from './lib/storage';
import { nulSafeValidatorCompiler } from './lib/validator';
import { boundedJsonParser } from './lib/json-body';
import { quoteService } from './services/quote';
import { scanService } from './services/scan';
import { userService } from './services/user';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by graceful shutdown: /api/ready answers 503 so the load balancer stops sending new requests here. */
    lifecycle: { draining: boolean };
  }
}

/** A request id from the proxy in front (X-Request-Id) is kept when it looks like one; otherwise a new UUID. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export interface AppDeps {
  config: Config;
  db: Database;
  mailer?: Mailer;
  storage?: FileStorage;
  /** The database's address, for the bus's own connection (LISTEN); DATABASE_URL unless given (the embedded one). */
  databaseUrl?: string;
  /** Where the request log goes (tests read it); stdout by default. */
  logStream?: { write(line: string): void };
  /** The plain resources the app serves: every definition under src/resources unless given (a test adds one). */
  definitions?: readonly ResourceDefinition[];
}

/**
 * Builds the whole server in an explicit order: configuration (already validated), database,
 * security headers, rate limits, OpenAPI docs, auth, the five services, then the single-page app.
 */
export async function buildApp({ config, db, mailer, storage, logStream, databaseUrl, definitions }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // Request lines never carry a secret: query strings of the auth routes and token-like parameters are redacted, headers are not logged.
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: config.LOG_LEVEL,
            serializers: { req: serializeRequest },
            redact: ['req.headers.authorization', 'req.headers["x-kiosk-token"]', 'req.headers["x-api-key"]'],
            ...(logStream ? { stream: logStream } : {}),
          },
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // An address the router cannot read (a bad %-encoding, a path part over its length) answers in the API's shape.
    frameworkErrors: (_error, _request, reply) => {
      void (reply as FastifyReply).status(400).send({ error: 'The address is not valid: check its encoding and the length of its parts' });
    },
  });
  app.decorate('lifecycle', { draining: false });
  app.decorate('definitions', definitions ?? (await loadDefinitions()));
  app.decorate('uploadLimits', uploadLimitsOf(config));
  // A request's lines carry its id through `request.log` (and the loggers handed on from it, e.g. background work).
  // No AsyncLocalStorage: on Node 20 it hooks every promise, about a tenth of an API request's CPU.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.setValidatorCompiler(nulSafeValidatorCompiler);
  boundedJsonParser(app);
  const replySerializer = createReplySerializer({ check: config.NODE_ENV === 'test' });
  app.setSerializerCompiler(replySerializer);
  app.decorate('replySerializer', replySerializer);

  await app.register(errorsPlugin);
  await app.register(databasePlugin, { db });
  app.decorate('signer', await loadSigner(db));
  await app.register(backgroundPlugin);
  const busUrl = databaseUrl ?? config.DATABASE_URL;
  if (config.REALTIME_BUS === 'postgres' && !busUrl) throw new Error('REALTIME_BUS=postgres needs the database URL');
  const bus = config.REALTIME_BUS === 'postgres' && busUrl ? await createPgBus(busUrl, app.log) : localBus(app.log);
  app.decorate('bus', bus);
  // Registered before the broadcaster's: hooks run in reverse, so the bus closes after the hub.
  app.addHook('onClose', () => bus.close());
  app.decorate('storage', storage ?? createStorage(config));
  await app.register(securityHeadersPlugin, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // MUI/emotion injects style elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  // The API is limited; the app's own static files are not (a page load fetches dozens of chunks). Decided on the
  // route the router matched, never the raw URL: `/%61pi/...` and `GET http://host/api/...` reach the same handlers.
  await app.register(rateLimit, {
    max: config.RATE_LIMIT_PER_MINUTE,
    timeWindow: '1 minute',
    allowList: (req) => !(req.routeOptions.url ?? '').startsWith('/api/'),
    // In PostgreSQL when several instances share the limit; in memory (per instance) otherwise.
    ...(config.RATE_LIMIT_STORE === 'postgres' ? { store: pgRateLimitStore(db) } : {}),
  });
  await app.register(compressPlugin);
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'ScanQuote API',
        version: '1.0.0',
        description:
          'The five services of the vehicle-scan back-office. Send `Authorization: Bearer <token>` from POST /api/user/auth/login.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  await app.register(authPlugin, { cacheSeconds: config.AUTH_CACHE_SECONDS });
  await app.register(pageCachePlugin, { cacheSeconds: config.PAGE_CACHE_SECONDS });
  await app.register(realtimePlugin, { config });

  const outbox = mailer ?? createMailer(db, { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM });
  const r = app.withTypeProvider();
  r.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: { tags: ['System'], summary: 'Liveness', response: { 200: z.object({ status: z.literal('ok') }) } },
    },
    () => ({ status: 'ok' as const }),
  );
  r.get(
    '/api/ready',
    {
      config: { access: 'public' },
      schema: {
        tags: ['System'],
        summary: 'Readiness: the database answers, and the instance is not shutting down',
        response: { 200: z.object({ status: z.literal('ready') }), 503: z.object({ error: z.string() }) },
      },
    },
    async (_req, reply) => {
      if (app.lifecycle.draining) return reply.status(503).send({ error: 'Shutting down' });
      try {
        await sql`select 1`.execute(db);
        return { status: 'ready' as const };
      } catch {
        return reply.status(503).send({ error: 'Database unavailable' });
      }
    },
  );

  await app.register(userService, { prefix: '/api/user', config, mailer: outbox });
  await app.register(agentService, { prefix: '/api/agent', allowPrivateWebhooks: config.WEBHOOK_ALLOW_PRIVATE });
  await app.register(scanService, { prefix: '/api/scan', config });
  await app.register(quoteService, { prefix: '/api/quote', mailer: outbox, appUrl: config.APP_URL });
  await app.register(emailService, { prefix: '/api/email', mailer: outbox, appUrl: config.APP_URL });

  await spaPlugin(app, { root: config.STATIC_DIR });
  return app;
}
