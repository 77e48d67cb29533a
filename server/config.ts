import path from 'node:path';
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Every setting the server reads, validated once at start (fastify/demo's env plugin habit). */
const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  /** Public address of the app, used in e-mailed links. Defaults to http://localhost:PORT. */
  APP_URL: z.url().optional(),
  /** An external PostgreSQL; when unset an embedded one is started under DATA_DIR. */
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://').optional(),
  DATA_DIR: z.string().min(1).default('data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
  /** Load demo data on an empty embedded database (never on DATABASE_URL unless `npm run seed:demo`). */
  SEED_DEMO: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TOKEN_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 90).default(24 * 7),
  RESET_TOKEN_TTL_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(10),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  LOGIN_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  TRUST_PROXY: bool.default(false),
  /** SMTP server for the mail outbox, e.g. smtp://user:pass@host:587. Unset: mails stay queued in the outbox. */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().min(3).default('ScanQuote <no-reply@scanquote.local>'),
  /** Where the built single-page app lives. */
  STATIC_DIR: z.string().default('dist'),
  /** Uploaded files go to an S3-compatible bucket (path-style URLs) when all five S3_* are set; else to DATA_DIR/files. */
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (lower-case letters, digits, dots, hyphens)').optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://s3.eu-west-1.amazonaws.com' }).optional(),
  S3_REGION: z.string().regex(/^[a-z0-9-]+$/, 'must be a region name such as us-east-1').optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
}).superRefine((c, ctx) => {
  // Half an S3 configuration would silently store files on the local disk instead.
  const names = ['S3_BUCKET', 'S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
  if (!names.some((n) => c[n] !== undefined)) return;
  for (const n of names) if (c[n] === undefined) ctx.addIssue({ code: 'custom', path: [n], message: 'is required when any S3_* setting is set' });
});

export type Config = z.infer<typeof ConfigSchema> & { APP_URL: string; DATA_DIR: string };

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  return { ...c, DATA_DIR: path.resolve(c.DATA_DIR), APP_URL: c.APP_URL ?? `http://localhost:${c.PORT}` };
}
