import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createReplySerializer, replyJsonSchema } from '../../server/lib/serializer';
import { dataReply, pageReply } from '../../server/lib/replies';
import { createTestContext, type TestContext } from './helper';

const record = z.object({
  id: z.number(),
  name: z.string(),
  note: z.string().nullable(),
  agent_id: z.number().nullable(),
  created_at: z.date(),
  tags: z.array(z.string()),
  extra: z.unknown(),
});
const route = (schema: z.ZodType) => ({ schema, method: 'GET', url: '/x', httpStatus: '200' });

describe('reply serialiser (fast-json-stringify from the zod response schema)', () => {
  it('writes only what the schema names, dates as ISO strings, nulls as null', () => {
    const write = createReplySerializer()(route(pageReply(record)));
    const at = new Date('2026-11-24T01:02:03.004Z');
    const row = { id: 1, name: 'Depot', note: null, agent_id: 3, created_at: at, tags: ['a'], extra: { k: [1] } };
    const out = write({ items: [{ ...row, password_hash: '$argon2id$secret', token_hash: 'abc' }], total: 1, secret: 'x' });
    expect(JSON.parse(out)).toEqual({ items: [{ ...row, created_at: '2026-11-24T01:02:03.004Z' }], total: 1 });
    expect(out).not.toMatch(/argon2|token_hash|secret/);
  });

  it('compiles nullable scalars to a type list (no validator per value)', () => {
    const json = replyJsonSchema(dataReply(record)) as { properties: { data: { properties: Record<string, unknown> } } };
    expect(json.properties.data.properties.note).toEqual({ type: ['string', 'null'] });
    expect(json.properties.data.properties.created_at).toEqual({ type: 'string', format: 'date-time' });
  });

  it('writes a nullable record holding dates, and null (no validator that would see a Date, not a string)', () => {
    const write = createReplySerializer({ check: true })(route(dataReply(record.nullable())));
    const at = new Date('2026-11-24T01:02:03.004Z');
    const row = { id: 1, name: 'Depot', note: null, agent_id: null, created_at: at, tags: [], extra: null };
    expect(JSON.parse(write({ data: row }))).toEqual({ data: { ...row, created_at: '2026-11-24T01:02:03.004Z' } });
    expect(JSON.parse(write({ data: null }))).toEqual({ data: null });
  });

  it('leaves a schema with a transform to zod', () => {
    const compile = createReplySerializer();
    const write = compile(route(z.object({ n: z.number().transform((n) => n * 2) })));
    expect(compile.viaZodRoutes).toEqual(['GET /x 200']);
    expect(() => write({ n: 1 })).toThrow();
  });

  it('with check (the test suite), a reply zod refuses is still refused', () => {
    const write = createReplySerializer({ check: true })(route(dataReply(record)));
    expect(() => write({ data: { id: 'one', name: 'x' } })).toThrow(/schema/);
  });
});

describe('every route of the app', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });

  it('writes its JSON replies with fast-json-stringify; only the file route (bytes, whole or a range) keeps zod', () => {
    expect(t.app.replySerializer.viaZodRoutes).toEqual([
      'GET /api/user/files/:key 200',
      'GET /api/user/files/:key 206',
      'HEAD /api/user/files/:key 200',
      'HEAD /api/user/files/:key 206',
    ]);
  });
});
