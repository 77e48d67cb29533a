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
