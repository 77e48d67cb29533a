import path from 'node:path';
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Every setting the server reads, validated once at start (fastify/demo's env plugin habit). */
const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: z.coerce.number().int().min(1).max(65535).default(8080),
    /** Public address of the app, used in e-mailed links. Defaults to http://localhost:PORT. */
    APP_URL: z.url().optional(),
    /** An external PostgreSQL; when unset an embedded one is started under DATA_DIR. */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
    DATA_DIR: z.string().min(1).default('data'),
    EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
    /** Load demo data on an empty embedded database (never on DATABASE_URL unless `npm run seed:demo`). */
    SEED_DEMO: bool.default(true),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TOKEN_TTL_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 90)
      .default(24 * 7),
    RESET_TOKEN_TTL_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(10),
    LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
    LOGIN_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
    /** Where request counts live: `memory` (each instance its own) or `postgres` (shared by every instance on the database). */
    RATE_LIMIT_STORE: z.enum(['memory', 'postgres']).default('memory'),
    /** How long a checked bearer token's user, roles and scope are reused without asking the database; 0 turns it off. */
    AUTH_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
    /**
     * How long a list page written by PostgreSQL is reused for the same statement (cleared by every write, see
     * plugins/page-cache.ts); 0 turns it off.
     */
    PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
    TRUST_PROXY: bool.default(false),
    /**
     * Graceful shutdown (SIGTERM): seconds /api/ready answers 503 while requests are still served, so a load balancer's
     * health check takes the instance out first; then it stops accepting and finishes what is under way.
     */
    SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(60).default(0),
    /** A shutdown that has not finished after this many seconds exits anyway (code 1). */
    SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
    /** The largest file one multipart upload may carry (a route's own cap, e.g. 5 MB for images, applies below it); more is 413. */
    UPLOAD_FILE_MAX_MB: z.coerce.number().int().min(1).max(1024).default(50),
    /** The largest multipart request (every part together); more is 413, refused as it streams. */
    UPLOAD_REQUEST_MAX_MB: z.coerce.number().int().min(1).max(2048).default(60),
    /** Let webhooks reach private, loopback and link-local addresses (a receiver on this machine or the LAN). */
    WEBHOOK_ALLOW_PRIVATE: bool.default(false),
    /** Seconds a webhook receiver has to answer, connection included; a slow one holds only its own endpoint's lane. */
    WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(30).default(5),
    /**
     * Seconds to wait after the 1st, 2nd, ... failed attempt, comma-separated; after the last one a delivery is marked
     * failed. Unset: 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h (docs/webhooks.md).
     */
    WEBHOOK_RETRY_SECONDS: z
      .string()
      .regex(/^\d{1,6}(,\d{1,6}){0,49}$/, 'must be 1 to 50 whole numbers of seconds, comma-separated, e.g. 30,120,600')
      .transform((v) => v.split(',').map(Number))
      .optional(),
    /** How long a claimed delivery stays claimed past the receiver's timeout: a crashed instance's sends are retried by another after it. */
    WEBHOOK_CLAIM_MARGIN_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    /** SMTP server for the mail outbox, e.g. smtp://user:pass@host:587. Unset: mails stay queued in the outbox. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
    MAIL_FROM: z.string().min(3).default('ScanQuote <no-reply@scanquote.local>'),
    /** Without SMTP_URL, print mails (reset links included) on the console; default only when NODE_ENV is development. */
    MAIL_CONSOLE: bool.optional(),
    /** An external registration look-up service (docs/scan-page.md); unset, plates are looked up in the registrations table. */
    PLATE_LOOKUP_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    /** Sent to it as `Authorization: Bearer <key>`. */
    PLATE_LOOKUP_KEY: z.string().min(1).optional(),
    /** How long a look-up may take before the user is told the service did not answer (504). */
    PLATE_LOOKUP_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    /** Where the built single-page app lives. */
    STATIC_DIR: z.string().default('dist'),
    /** Uploaded files go to an S3-compatible bucket (path-style URLs) when all five S3_* are set; else to DATA_DIR/files. */
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (lower-case letters, digits, dots, hyphens)')
      .optional(),
    S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://s3.eu-west-1.amazonaws.com' }).optional(),
    S3_REGION: z
      .string()
      .regex(/^[a-z0-9-]+$/, 'must be a region name such as us-east-1')
      .optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** Embedded Pusher-protocol endpoint: a fixed key/secret pair (both or neither); unset, a random pair per process. */
    REALTIME_APP_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8-64 letters, digits, _ or -')
      .optional(),
    REALTIME_APP_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    /** Seconds of silence after which a browser pings (sent in pusher:connection_established); twice this without traffic closes. */
    REALTIME_ACTIVITY_TIMEOUT: z.coerce.number().int().min(5).max(600).default(30),
    /** Open WebSockets one client address may hold on one instance; more are refused (close code 4100). */
    REALTIME_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(50),
    /** WebSockets without a subscription one instance holds at once; more are refused (close code 4100). */
    REALTIME_MAX_UNSUBSCRIBED: z.coerce.number().int().min(1).max(1_000_000).default(1000),
    /** Seconds a WebSocket may stay open without a subscription before it is closed (code 4100). */
    REALTIME_IDLE_TIMEOUT: z.coerce.number().min(0.1).max(3600).default(30),
    /**
     * How instances tell each other of live events and cache changes: `postgres` (LISTEN/NOTIFY on the database, any
     * number of instances) or `none` (this process only: one instance).
     */
    REALTIME_BUS: z.enum(['postgres', 'none']).default('postgres'),
    /** An external Pusher-compatible server (soketi, Reverb, Pusher) instead of the embedded one, when the first three are set. */
    PUSHER_APP_ID: z.string().min(1).optional(),
    PUSHER_KEY: z.string().min(1).optional(),
    PUSHER_SECRET: z.string().min(1).optional(),
    PUSHER_HOST: z
      .string()
      .regex(/^[A-Za-z0-9.-]+$/, 'must be a host name, without scheme or port')
      .optional(),
    PUSHER_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    PUSHER_SCHEME: z.enum(['http', 'https']).optional(),
    PUSHER_CLUSTER: z
      .string()
      .regex(/^[a-z0-9-]+$/, 'must be a cluster name such as mt1')
      .optional(),
    /** Where browsers reach the external server, when not at PUSHER_HOST / PUSHER_PORT (e.g. behind a proxy). */
    PUSHER_WS_HOST: z
      .string()
      .regex(/^[A-Za-z0-9.-]+$/, 'must be a host name, without scheme or port')
      .optional(),
    PUSHER_WS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.UPLOAD_REQUEST_MAX_MB < c.UPLOAD_FILE_MAX_MB)
      ctx.addIssue({ code: 'custom', path: ['UPLOAD_REQUEST_MAX_MB'], message: 'must be at least UPLOAD_FILE_MAX_MB' });
    // Half a Pusher configuration would silently fall back to the embedded server.
    const pusher = ['PUSHER_APP_ID', 'PUSHER_KEY', 'PUSHER_SECRET'] as const;
    const pusherExtras = ['PUSHER_HOST', 'PUSHER_PORT', 'PUSHER_SCHEME', 'PUSHER_CLUSTER', 'PUSHER_WS_HOST', 'PUSHER_WS_PORT'] as const;
    if ([...pusher, ...pusherExtras].some((n) => c[n] !== undefined)) {
      for (const n of pusher)
        if (c[n] === undefined) ctx.addIssue({ code: 'custom', path: [n], message: 'is required when any PUSHER_* setting is set' });
    }
    if ((c.REALTIME_APP_KEY === undefined) !== (c.REALTIME_APP_SECRET === undefined)) {
      const missing = c.REALTIME_APP_KEY === undefined ? 'REALTIME_APP_KEY' : 'REALTIME_APP_SECRET';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'is required when the other REALTIME_APP_* setting is set' });
    }
    // Half an S3 configuration would silently store files on the local disk instead.
    const names = ['S3_BUCKET', 'S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
    if (!names.some((n) => c[n] !== undefined)) return;
    for (const n of names)
      if (c[n] === undefined) ctx.addIssue({ code: 'custom', path: [n], message: 'is required when any S3_* setting is set' });
  });

export type Config = z.infer<typeof ConfigSchema> & { APP_URL: string; DATA_DIR: string; MAIL_CONSOLE: boolean };

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  return {
    ...c,
    DATA_DIR: path.resolve(c.DATA_DIR),
    APP_URL: c.APP_URL ?? `http://localhost:${c.PORT}`,
    // A printed mail holds its links (a password reset token): only on a developer's machine unless asked for.
    MAIL_CONSOLE: c.MAIL_CONSOLE ?? c.NODE_ENV === 'development',
  };
}
