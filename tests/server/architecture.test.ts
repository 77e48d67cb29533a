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

/**
 * The services' shape (docs/ARCHITECTURE.md "One shape for a service"): in a service's folder, routes parse and
 * authorise, then call a service with plain inputs; every SQL statement is in a repository. Route files are `index.ts`,
 * `routes.ts` and `*-routes.ts`; every other file is service code (`*-service.ts`, `*-repository.ts`, resource parts, helpers).
 * (a) no file both registers routes and holds SQL; (b) no service file names a Fastify type.
 */
const SHAPED_SERVICES = ['user', 'agent', 'email', 'scan', 'quote'];

const REGISTERS_ROUTES =
  /\b(?:app|fastify|r|router|server)\s*\.\s*(?:get|post|put|patch|delete|head|options|all)\s*\(|\.route\s*\(\s*\{|\bregister(?:Resource|Definitions)\s*\(/;
const HOLDS_SQL =
  /\.(?:selectFrom|insertInto|updateTable|deleteFrom|query|executeQuery)\s*\(|\bsql\s*(?:<[^`]*?>)?\s*`|\bsql\.(?:ref|table|join|raw|lit)\b/;
const FASTIFY_TYPE = /\bFastify(?:Request|Reply|Instance)\b/;
const isRouteFile = (file: string) => /\/(?:index|routes|[\w-]+-routes)\.ts$/.test(file);

/** Breaches of the services' shape among `files` (repository-relative path -> source), in the `services` named. */
export function shapeViolations(files: Record<string, string>, services: readonly string[]): string[] {
  const found: string[] = [];
  for (const [file, source] of Object.entries(files)) {
    const service = serviceOf(file);
    if (!service || !services.includes(service)) continue;
    if (REGISTERS_ROUTES.test(source) && HOLDS_SQL.test(source))
      found.push(`${file} registers routes and holds SQL (move the SQL to a repository)`);
    if (!isRouteFile(file) && FASTIFY_TYPE.test(source))
      found.push(`${file} names a Fastify type (a service takes plain inputs; only index.ts and route files see the request)`);
  }
  return found;
}

describe('server services shape', () => {
  it('in the shaped services, routes hold no SQL and services name no Fastify type', () => {
    const files = serverFiles(serverDir);
    for (const service of SHAPED_SERVICES) expect(Object.keys(files).some((f) => serviceOf(f) === service)).toBe(true);
    expect(shapeViolations(files, SHAPED_SERVICES)).toEqual([]);
  });

  it('catches routes beside SQL, and a service that sees the request', () => {
    expect(
      shapeViolations(
        {
          'server/services/user/users.ts':
            "export function userKeyRoutes(app: FastifyInstance) {\n  app.get('/users/:id/apikey', async () => app.db.selectFrom('users'));\n}",
          'server/services/user/options-routes.ts':
            "r.post(\n  '/options/search', {}, async () => sql<{ id: number }>`select id from options`.execute(db),\n);",
          'server/services/agent/index.ts': 'registerResource(app, d);\nawait sql`delete from webhooks`.execute(app.db);',
          'server/services/email/mail-service.ts':
            "import type { FastifyRequest } from 'fastify';\nexport function scanMails() { return { send(req: FastifyRequest) {} }; }",
          'server/services/agent/webhooks-repository.ts': 'export const deliveries = (reply: FastifyReply) => reply;',
        },
        SHAPED_SERVICES,
      ),
    ).toEqual([
      'server/services/user/users.ts registers routes and holds SQL (move the SQL to a repository)',
      'server/services/user/users.ts names a Fastify type (a service takes plain inputs; only index.ts and route files see the request)',
      'server/services/user/options-routes.ts registers routes and holds SQL (move the SQL to a repository)',
      'server/services/agent/index.ts registers routes and holds SQL (move the SQL to a repository)',
      'server/services/email/mail-service.ts names a Fastify type (a service takes plain inputs; only index.ts and route files see the request)',
      'server/services/agent/webhooks-repository.ts names a Fastify type (a service takes plain inputs; only index.ts and route files see the request)',
    ]);
  });

  it('lets routes call services, services hold SQL through repositories, and leaves unlisted services out', () => {
    expect(
      shapeViolations(
        {
          'server/services/user/users-routes.ts':
            "export function userKeyRoutes(app: FastifyInstance) {\n  r.get('/users/:id/apikey', async (req) => users.newApiKey(callerOf(req), 1));\n}",
          'server/services/user/users-repository.ts': "export const find = (db: Executor) => db.selectFrom('users').execute();",
          'server/services/user/users-service.ts':
            'export function usersService(deps: Pick<Deps, "db">) { return { find: () => find(deps.db) }; }',
          'server/services/legacy/legacy-routes.ts': "r.get('/legacy', async (req: FastifyRequest) => sql`select 1`.execute(db));",
          'server/lib/resource-routes.ts': "app.get('/x', async (req: FastifyRequest) => sql`select 1`);",
        },
        SHAPED_SERVICES,
      ),
    ).toEqual([]);
  });
});

/**
 * The demo seed writes the records a user could make in the product (users and their roles, agents, clients and their
 * prices, locations, devices, webhooks, the catalogue, e-mail templates) through their resources' service (server/seed/records.ts), so demo rows obey the
 * same schemas and hooks as the API's. Bulk history (scans and their measures) is loaded in SQL for speed.
 */
const SERVICE_WRITTEN = [
  'users',
  'user_roles',
  'user_agents',
  'user_clients',
  'agents',
  'clients',
  'client_products',
  'client_parts',
  'client_dent_prices',
  'client_scratch_prices',
  'locations',
  'devices',
  'panel_groups',
  'panels',
  'parts',
  'products',
  'email_templates',
  'webhooks',
];
const SEED_WRITE = /\.(?:insertInto|updateTable|deleteFrom)\(\s*'(\w+)'|\b(?:insert\s+into|update|delete\s+from)\s+(\w+)/gi;

/** The seed's direct writes to tables of records that go through a service, among `files`. */
export function seedWrites(files: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [file, source] of Object.entries(files)) {
    if (!file.startsWith('server/seed/')) continue;
    for (const m of source.matchAll(SEED_WRITE)) {
      const table = (m[1] ?? m[2]).toLowerCase();
      if (SERVICE_WRITTEN.includes(table)) found.push(`${file} writes ${table} directly (use seedRecords)`);
    }
  }
  return found;
}

describe('demo seed', () => {
  it("writes users, agents, clients, locations, devices, the catalogue and templates through their resources' service", () => {
    expect(seedWrites(serverFiles(serverDir))).toEqual([]);
  });

  it('catches a direct insert or update of such a table, in a query builder or in SQL, and leaves other tables alone', () => {
    expect(
      seedWrites({
        'server/seed/demo.ts': "await trx.insertInto('users').values(u).execute();\nawait sql`update agents set logo = ${l}`.execute(db);",
        'server/seed/scans-demo.ts':
          "await trx.insertInto('scans').values(rows).execute();\nawait trx.updateTable('scans').set(s).execute();",
        'server/services/user/users-repository.ts': "db.insertInto('users')",
      }),
    ).toEqual([
      'server/seed/demo.ts writes users directly (use seedRecords)',
      'server/seed/demo.ts writes agents directly (use seedRecords)',
    ]);
  });
});

/**
 * The browser's layers (docs/ARCHITECTURE.md "Layers"), lowest first: a file imports only from its own layer or a lower
 * one, no two layers import each other, and no files import each other in a circle. Tests and src/test are outside it.
 */
const LAYERS = [
  'domain',
  'config',
  'i18n',
  'session',
  'realtime',
  'dataProvider',
  'authProvider',
  'components',
  'resources',
  'custom',
  'root',
] as const;
type Layer = (typeof LAYERS)[number];

const layerOf = (file: string): Layer => {
  if (file === 'src/config.ts') return 'config';
  const top = /^src\/([^/]+)\//.exec(file)?.[1];
  return (LAYERS as readonly string[]).includes(top ?? '') && top !== 'config' && top !== 'root' ? (top as Layer) : 'root';
};
const rank = (layer: Layer) => LAYERS.indexOf(layer);

/** The file an import names, among `files`: with or without its extension, or a folder's index. */
function resolveImport(files: Record<string, string>, target: string): string | null {
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`, `${target}/index.tsx`])
    if (candidate in files) return candidate;
  return null;
}

/** The strongly connected groups of more than one node (Tarjan), each as a shortest circle from its first node. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return groups.map((group) => {
    const members = new Set(group);
    const start = [...group].sort()[0];
    const from = new Map<string, string>();
    const queue = [start];
    while (queue.length) {
      const v = queue.shift()!;
      for (const w of graph.get(v) ?? []) {
        if (w === start) {
          const path = [v];
          while (path[0] !== start) path.unshift(from.get(path[0])!);
          return [...path, start];
        }
        if (members.has(w) && !from.has(w)) {
          from.set(w, v);
          queue.push(w);
        }
      }
    }
    return [...group].sort();
  });
}

/** Breaches of the browser's layering among `files` (repository-relative path -> source). */
export function layerViolations(files: Record<string, string>): string[] {
  const found: string[] = [];
  const fileGraph = new Map<string, string[]>();
  const layerGraph = new Map<string, Set<string>>();
  for (const [file, source] of Object.entries(files)) {
    const from = layerOf(file);
    const targets: string[] = [];
    for (const spec of importsOf(source)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      if (!target.startsWith('src/')) continue;
      const to = layerOf(resolveImport(files, target) ?? target);
      if (rank(to) > rank(from)) found.push(`${file} imports ${spec} (layer ${from} sits below ${to})`);
      if (to !== from) layerGraph.set(from, new Set([...(layerGraph.get(from) ?? []), to]));
      const resolved = resolveImport(files, target);
      if (resolved) targets.push(resolved);
    }
    fileGraph.set(file, targets);
  }
  const layerEdges = new Map([...layerGraph].map(([layer, to]) => [layer, [...to]]));
  for (const circle of cycles(layerEdges)) found.push(`layers import each other: ${circle.join(' -> ')}`);
  for (const circle of cycles(fileGraph)) found.push(`files import each other: ${circle.join(' -> ')}`);
  return found;
}

function browserFiles(dir: string, out: Record<string, string> = {}) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const rel = path.relative(root, full).split(path.sep).join('/');
    if (entry.isDirectory()) {
      if (rel !== 'src/test') browserFiles(full, out);
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out[rel] = fs.readFileSync(full, 'utf8');
  }
  return out;
}

describe('browser layers', () => {
  it('every src/ file imports only its own layer or lower ones, with no cycle between layers or files', () => {
    const files = browserFiles(path.join(root, 'src'));
    expect(new Set(Object.keys(files).map(layerOf))).toEqual(new Set(LAYERS));
    expect(layerViolations(files)).toEqual([]);
  });

  it('catches an upward import, layers importing each other and a file cycle', () => {
    expect(
      layerViolations({
        'src/domain/pricing.ts': "import { x } from './client-fields';",
        'src/domain/client-fields.ts': "import type { Row } from './pricing';\nimport { y } from '../components/kit';",
        'src/components/kit.tsx': "import { DENT_LEVELS } from '../domain/pricing';",
        'src/i18n/i18nProvider.ts': "import { parseMessageLines } from '../components/ruleMessages';",
        'src/custom/login/index.ts': "export { path } from '../forgot-password';",
        'src/custom/forgot-password/index.ts': "import { path as loginPath } from '../login';",
      }),
    ).toEqual([
      'src/domain/client-fields.ts imports ../components/kit (layer domain sits below components)',
      'src/i18n/i18nProvider.ts imports ../components/ruleMessages (layer i18n sits below components)',
      'layers import each other: components -> domain -> components',
      'files import each other: src/components/kit.tsx -> src/domain/pricing.ts -> src/domain/client-fields.ts -> src/components/kit.tsx',
      'files import each other: src/custom/forgot-password/index.ts -> src/custom/login/index.ts -> src/custom/forgot-password/index.ts',
    ]);
  });

  it('lets a layer import itself and the layers below it, and leaves tests out', () => {
    expect(
      layerViolations({
        'src/App.tsx': "import { pages } from './custom/pages';\nimport { store } from './store';",
        'src/store.ts': '',
        'src/custom/pages.ts': "import * as login from './login';",
        'src/custom/login/index.ts': "import { lazyPage } from '../../components/lazyPage';",
        'src/components/lazyPage.tsx': "import { i18nProvider } from '../i18n/i18nProvider';\nimport { API_URL } from '../config';",
        'src/i18n/i18nProvider.ts': "import { messages } from '../domain/messages';",
        'src/domain/messages.ts': '',
        'src/config.ts': '',
      }),
    ).toEqual([]);
  });
});
