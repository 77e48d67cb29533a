import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The server's import rule (docs/ARCHITECTURE.md "Services apart"): a service imports another service's files never;
 * what several services need is a shared module in server/lib or server/plugins. server/lib, server/plugins,
 * server/realtime and server/db sit below the services and import none of them; the composition root (app.ts,
 * server.ts, workers.ts) imports a service only through its index.ts. Demo seeding and scripts are tooling, outside the rule.
 */
const root = path.resolve(__dirname, '../..');
const serverDir = path.join(root, 'server');

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

/** The relative specifiers a source file imports or re-exports. */
export function importsOf(source: string): string[] {
  return [...source.matchAll(SPECIFIER)].map((m) => m[1] ?? m[2] ?? m[3]).filter((s) => s.startsWith('.'));
}

const serviceOf = (rel: string) => /^server\/services\/([^/]+)\//.exec(rel)?.[1] ?? null;
const BELOW_SERVICES = /^server\/(lib|plugins|realtime|db)\/|^server\/(errors|config)\.ts$/;
const COMPOSITION_ROOT = new Set(['server/app.ts', 'server/server.ts', 'server/workers.ts']);

/** Breaches of the rule among `files` (repository-relative path -> source). */
export function violations(files: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [file, source] of Object.entries(files)) {
    const from = serviceOf(file);
    for (const spec of importsOf(source)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      const to = serviceOf(`${target}/`) ?? serviceOf(target);
      if (!to) continue;
      const entry = target === `server/services/${to}` || target === `server/services/${to}/index`;
      if (from && from !== to) found.push(`${file} imports ${spec} (service ${from} reaching into service ${to})`);
      else if (BELOW_SERVICES.test(file)) found.push(`${file} imports ${spec} (shared code must not depend on a service)`);
      else if (COMPOSITION_ROOT.has(file) && !entry) found.push(`${file} imports ${spec} (only a service's index.ts)`);
    }
  }
  return found;
}

function serverFiles(dir: string, out: Record<string, string> = {}) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) serverFiles(full, out);
    else if (/\.tsx?$/.test(entry.name)) out[path.relative(root, full).split(path.sep).join('/')] = fs.readFileSync(full, 'utf8');
  }
  return out;
}

describe('server import rule', () => {
  it('no service imports another service, and shared code imports none', () => {
    const files = serverFiles(serverDir);
    expect(Object.keys(files).filter((f) => serviceOf(f)).length).toBeGreaterThan(20);
    expect(violations(files)).toEqual([]);
  });

  it('catches a new cross-service import, a service import in shared code, and a composition root reaching inside', () => {
    expect(
      violations({
        'server/services/scan/ingest.ts': "import { clientScope } from '../quote/scopes';\nimport { x } from './repository';",
        'server/services/user/index.ts': "import type { Mailer } from '../email/outbox';",
        'server/services/agent/x.ts': "export { y } from '../scan';\nconst m = await import('../user/users');",
        'server/plugins/auth.ts': "import { findAccessByTokenHash } from '../services/user/access-repository';",
        'server/lib/events.ts': "import { enqueueWebhooks } from '../services/agent/webhook-delivery';",
        'server/server.ts':
          "import { createWebhookDeliverer } from './services/agent/webhook-delivery';\nimport { scanService } from './services/scan';",
      }),
    ).toEqual([
      'server/services/scan/ingest.ts imports ../quote/scopes (service scan reaching into service quote)',
      'server/services/user/index.ts imports ../email/outbox (service user reaching into service email)',
      'server/services/agent/x.ts imports ../scan (service agent reaching into service scan)',
      'server/services/agent/x.ts imports ../user/users (service agent reaching into service user)',
      'server/plugins/auth.ts imports ../services/user/access-repository (shared code must not depend on a service)',
      'server/lib/events.ts imports ../services/agent/webhook-delivery (shared code must not depend on a service)',
      "server/server.ts imports ./services/agent/webhook-delivery (only a service's index.ts)",
    ]);
  });

  it('lets a service use its own files and the shared modules, and the root use service entry points', () => {
    expect(
      violations({
        'server/services/scan/events.ts':
          "import { enqueueWebhooks } from '../../lib/events';\nimport { findScanItem } from './repository';",
        'server/services/user/auth-service.ts': "import { findAccessByUserId } from '../../lib/access';",
        'server/app.ts': "import { agentService } from './services/agent';\nimport { x } from './services/scan/index';",
        'server/seed/scans-demo.ts': "import type { LevelCounts } from '../services/scan/repository';",
      }),
    ).toEqual([]);
  });
});
