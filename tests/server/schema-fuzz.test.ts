import type { HTTPMethods } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helper';

/**
 * Every route's own schema, from the OpenAPI document the app builds from its zod schemas, fuzzed with values the
 * schema names at its edges (its own maximum and minimum, its longest string) and beyond them (wrong types, huge
 * numbers, far dates): a Super Admin's request is answered, never with a 5xx. Bounded: one bad value per request,
 * at most MAX_PER_ROUTE requests per route and method.
 */
let t: TestContext;
let admin: string;
/** Rows a body's references name, so a bad member is not hidden behind a missing scan or client. */
const ids: Record<string, number> = {};
beforeAll(async () => {
  t = await createTestContext({ RATE_LIMIT_PER_MINUTE: '1000000' });
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  ids.client_id = (await t.build.client()).id;
  ids.agent_id = (await t.build.agent({ default_client_id: ids.client_id })).id;
  ids.scan_id = (await t.build.scan({ agent_id: ids.agent_id, client_id: ids.client_id })).id;
  ids.value = (await t.build.product()).id;
});

const MAX_PER_ROUTE = 150;
/** Members of a body that get fuzzed, in the schema's order. */
const MAX_MEMBERS = 16;

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
  default?: unknown;
}
interface Operation {
  parameters?: { in: string; name: string; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

/** The first concrete alternative of a union (zod's nullable and optional members are `anyOf`). */
function concrete(s: JsonSchema): JsonSchema {
  const alternatives = s.anyOf ?? s.oneOf ?? s.allOf;
  if (alternatives?.length) return concrete(alternatives.find((a) => a.type !== 'null') ?? alternatives[0]);
  return s;
}
const typeOf = (s: JsonSchema) => {
  const c = concrete(s);
  if (c.enum || c.const !== undefined) return 'enum';
  return [c.type ?? 'unknown'].flat().find((x) => x !== 'null') ?? 'unknown';
};

/** A plausible value of the schema, so one bad member at a time gets past the others. */
function sample(s: JsonSchema, name = ''): unknown {
  const c = concrete(s);
  if (c.default !== undefined) return c.default;
  if (c.const !== undefined) return c.const;
  if (c.enum) return c.enum[0];
  switch (typeOf(c)) {
    case 'integer':
    case 'number':
      return ids[name] ?? Math.max(1, typeof c.minimum === 'number' ? c.minimum : 1);
    case 'boolean':
      return true;
    case 'array':
      return c.items && typeOf(c.items) === 'object' ? [sample(c.items)] : [];
    case 'object':
      return Object.fromEntries(Object.entries(c.properties ?? {}).map(([k, v]) => [k, sample(v, k)]));
    case 'string':
      if (c.format === 'email' || /email/.test(name)) return `fuzz.${name}@example.test`;
      if (c.format === 'uri' || /url|endpoint|logo/.test(name)) return 'https://example.test/fuzz';
      if (c.pattern?.startsWith('^\\d{4}-')) return '2024-05-31';
      return 'Fuzz';
    default:
      return 'Fuzz';
  }
}

const FAR_DATES = ['9999-12-31 23:59:59', '9999-12-31T23:59:59-14:00', '9999-12-31', '1900-01-01T00:00:00+14:00', '0001-01-01'];
const HUGE = [2 ** 31, 2 ** 53 + 2, 9_999_999_999.99, 1e15, 1e308, -1e308, -(2 ** 31) - 1, 1.5, -1];

/** Values at and beyond the schema's edges, and of the wrong type. */
function badValues(s: JsonSchema, name: string): unknown[] {
  const c = concrete(s);
  const out: unknown[] = [{ nested: { deeper: [1] } }, null];
  switch (typeOf(c)) {
    case 'integer':
    case 'number':
      if (typeof c.maximum === 'number') out.push(c.maximum);
      if (typeof c.minimum === 'number') out.push(c.minimum);
      out.push(...HUGE, 'not a number', '99999999999999999999');
      break;
    case 'string': {
      const longest = Math.min(c.maxLength ?? 20_000, 100_000);
      out.push('x'.repeat(longest), 'x'.repeat(longest + 1), 12345, ...FAR_DATES, '\u00e9\u{1F600}'.repeat(Math.min(longest, 2000)));
      if (/email/.test(name)) out.push(`${'a'.repeat(64)}@${'b'.repeat(250)}.test`);
      break;
    }
    case 'array':
      out.push(Array.from({ length: Math.min((c.maxItems ?? 1000) + 1, 1001) }, () => (c.items ? sample(c.items) : 1)));
      if (c.items) out.push(...badValues(c.items, name).map((v) => [v]));
      // A list of records: each member of one record bad in turn.
      if (c.items && typeOf(c.items) === 'object') {
        const item = sample(c.items) as Record<string, unknown>;
        for (const [member, schema] of Object.entries(concrete(c.items).properties ?? {}))
          out.push(...badValues(schema, member).map((v) => [{ ...item, [member]: v }]));
      }
      break;
    case 'boolean':
    case 'enum':
      out.push('maybe', 2 ** 31);
      break;
    case 'object':
      out.push('not an object', [1, 2]);
      break;
    default:
      out.push(...HUGE.slice(0, 3), 'x'.repeat(20_000), ...FAR_DATES.slice(0, 2));
  }
  return out;
}

const PATH_VALUES = ['9223372036854775808', '99999999999999999999', '2147483648', '-1', '0', '1.5', 'abc', '1e400'];

interface Call {
  method: HTTPMethods;
  url: string;
  payload?: unknown;
}

/** The requests for one operation: each path parameter, query parameter and body member bad in turn. */
function callsOf(path: string, method: HTTPMethods, op: Operation): Call[] {
  const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
  const fill = (values: Record<string, string> = {}) =>
    path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? '999999'));
  const calls: Call[] = [];
  for (const name of pathParams) for (const v of PATH_VALUES) calls.push({ method, url: fill({ [name]: v }) });
  // Deleting with a bad id only: a valid one would remove what later requests exercise.
  if (method === 'DELETE') return calls;
  for (const p of (op.parameters ?? []).filter((q) => q.in === 'query')) {
    for (const v of badValues(p.schema, p.name)) {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') continue;
      calls.push({ method, url: `${fill()}?${p.name}=${encodeURIComponent(String(v))}` });
    }
  }
  const content = op.requestBody?.content;
  const schema = content?.['application/json']?.schema ?? content?.['multipart/form-data']?.schema;
  if (schema && typeOf(schema) === 'object') {
    const base = sample(schema) as Record<string, unknown>;
    const members = Object.entries(concrete(schema).properties ?? {}).slice(0, MAX_MEMBERS);
    for (const [name, member] of members)
      for (const v of badValues(member, name)) calls.push({ method, url: fill(), payload: { ...base, [name]: v } });
  } else if (method !== 'GET' && method !== 'HEAD') {
    calls.push({ method, url: fill(), payload: { value: 2 ** 63, date: FAR_DATES[0], text: 'x'.repeat(20_000) } });
  }
  return calls.slice(0, MAX_PER_ROUTE);
}

describe("every route's schema, fuzzed at and beyond its bounds", () => {
  it('never answers 5xx to a signed-in Super Admin', { timeout: 120_000 }, async () => {
    const spec = t.app.swagger() as unknown as { paths: Record<string, Record<string, Operation>> };
    const failures: string[] = [];
    let sent = 0;
    for (const [path, operations] of Object.entries(spec.paths)) {
      // Signing out would end the fuzz's own session; the docs are static.
      if (path.endsWith('/auth/logout') || path.startsWith('/api/docs')) continue;
      for (const [verb, op] of Object.entries(operations)) {
        const method = verb.toUpperCase();
        if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) continue;
        for (const call of callsOf(path, method, op)) {
          const res = await t.as(admin, {
            method: call.method,
            url: call.url,
            ...(call.payload === undefined ? {} : { payload: call.payload as object }),
          });
          sent++;
          if (res.statusCode >= 500)
            failures.push(
              `${call.method} ${call.url.slice(0, 120)} ${JSON.stringify(call.payload)?.slice(0, 200) ?? ''} → ${res.statusCode}`,
            );
        }
      }
    }
    await t.settled();
    expect(sent).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
  });
});
