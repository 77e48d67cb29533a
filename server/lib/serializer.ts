import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { createSerializerCompiler, ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

declare module 'fastify' {
  interface FastifyInstance {
    replySerializer: ReturnType<typeof createReplySerializer>;
  }
}

/** zod types fast-json-stringify cannot say: a reply schema holding one keeps zod's serialiser. */
const UNSUPPORTED = new Set(['transform', 'custom', 'bigint', 'symbol', 'map', 'set', 'promise', 'function', 'nan', 'undefined', 'void']);

type JsonSchema = Record<string, unknown>;

/** `anyOf: [{type: X}, {type: 'null'}]` (zod's nullable, X a scalar or an object) as `type: [X, 'null']`, which fast-json-stringify writes without a validator. */
function simplify(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(simplify);
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, simplify(v)]));
  const anyOf = out.anyOf as JsonSchema[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullBranch = anyOf.findIndex((b) => b.type === 'null' && Object.keys(b).length === 1);
    const other = anyOf[1 - nullBranch];
    // Objects too (a nullable record holding dates would otherwise go to the validator, which sees a Date, not a string).
    const plain = other && ['string', 'number', 'integer', 'boolean', 'object'].includes(other.type as string);
    if (nullBranch !== -1 && plain && !('enum' in other) && !('const' in other)) {
      delete out.anyOf;
      Object.assign(out, other, { type: [other.type, 'null'] });
    }
  }
  return out;
}

/** The JSON schema of a reply as it leaves (zod's output side), or null when it cannot be written without zod. */
export function replyJsonSchema(schema: z.ZodType): JsonSchema | null {
  let unsupported = false;
  const json = z.toJSONSchema(schema, {
    io: 'output',
    target: 'draft-7',
    unrepresentable: 'any',
    cycles: 'throw',
    reused: 'inline',
    override: (ctx) => {
      const def = ctx.zodSchema._zod.def as { type: string; reverseTransform?: unknown };
      if (def.type === 'date') Object.assign(ctx.jsonSchema, { type: 'string', format: 'date-time' });
      // A codec changes values on the way out, which only zod can do.
      if (UNSUPPORTED.has(def.type) || def.reverseTransform) unsupported = true;
    },
  });
  if (unsupported) return null;
  delete json.$schema;
  return simplify(json) as JsonSchema;
}

/**
 * Replies are written by fast-json-stringify, built once per route and status from the route's zod response
 * schema: only the properties the schema names leave (password, token and key hashes never do), without validating
 * every reply with zod as fastify-type-provider-zod's serialiser does (about a tenth of an API request's CPU in the profile).
 * With `check` (the test suite) every reply is also encoded by zod: a reply zod refuses is the usual 500, and one the
 * two serialisers would write differently fails loudly, so a schema fast-json-stringify reads otherwise is caught.
 */
export function createReplySerializer({ check = false } = {}) {
  const zodCompiler = createSerializerCompiler({});
  /** Every route and status given a writer, with its schema (for `viaZodRoutes`). */
  const routes: { label: string; schema: unknown }[] = [];
  // Routes share schema objects (ErrorReply on every route and status): each is translated and compiled once.
  const schemas = new WeakMap<object, JsonSchema | null>();
  const compiled = new WeakMap<JsonSchema, ((data: unknown) => string) | null>();
  const jsonSchemaOf = (schema: unknown) => {
    if (!(schema instanceof z.ZodType)) return null;
    if (!schemas.has(schema)) {
      let json: JsonSchema | null = null;
      try {
        json = replyJsonSchema(schema);
      } catch {
        json = null;
      }
      schemas.set(schema, json);
    }
    return schemas.get(schema) ?? null;
  };
  // A route's JSON schema and writer are made when the route first replies with that status: most of an app's routes
  // and statuses are never used by one process (a test file, a short-lived instance), and making them all at start
  // took about a sixth of the server's start-up.
  const writerOf = (json: JsonSchema) => {
    if (!compiled.has(json)) {
      let stringify: ((data: unknown) => string) | null = null;
      try {
        stringify = fastJson(json) as (data: unknown) => string;
      } catch {
        stringify = null;
      }
      compiled.set(json, stringify);
    }
    return compiled.get(json) ?? null;
  };
  const compiler: FastifySerializerCompiler<z.ZodType> = (route) => {
    const { schema, method, url, httpStatus } = route;
    const viaZod: (data: unknown) => string = zodCompiler(route);
    routes.push({ label: `${method} ${url} ${httpStatus}`, schema });
    const write = (data: unknown) => {
      const json = jsonSchemaOf(schema);
      return ((json && writerOf(json)) ?? viaZod)(data);
    };
    if (!check) return write;
    return (data) => {
      const expected = viaZod(data);
      const written = write(data);
      if (!isDeepStrictEqual(JSON.parse(written) as unknown, JSON.parse(expected) as unknown)) {
        const message = `${method} ${url}: fast-json-stringify wrote ${written}, zod ${expected}`;
        console.error(message);
        throw new ResponseSerializationError(method, url, { cause: new Error(message) as never });
      }
      return written;
    };
  };
  // A getter (Object.assign would copy its value once): the schemas are read when the list is asked for.
  return Object.defineProperties(compiler as typeof compiler & { check: boolean; readonly viaZodRoutes: string[] }, {
    check: { value: check },
    /** `METHOD url status` of the replies left to zod (their schema says something fast-json-stringify cannot). */
    viaZodRoutes: { get: () => routes.filter((r) => !jsonSchemaOf(r.schema)).map((r) => r.label) },
  });
}
