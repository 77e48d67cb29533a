import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helper';

/**
 * The approval figures read each link's own copy of its quote's agent and client and its scan's location and time
 * (migration 033): the database keeps that copy when the quote or the scan changes.
 */
let t: TestContext;
let admin: string;

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
});

const figures = async (query: string) => {
  const res = await t.as(admin, { method: 'GET', url: `/api/quote/quotes/approval-statistics?ts=2026-05-01&td=2026-05-31${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { sent: number; approved: number; scan_to_approval: { median_seconds: number | null } };
};

describe('a link’s copy of its quote’s and scan’s facts', () => {
  it('follows the quote’s client and the scan’s location and time', async () => {
    const client = (await t.build.client({ name: 'Figures client' })).id;
    const moved = (await t.build.client({ name: 'Figures client moved' })).id;
    const agent = (await t.build.agent({ name: 'Figures agent', default_client_id: client })).id;
    const [first, second] = [(await t.build.location({ agent_id: agent })).id, (await t.build.location({ agent_id: agent })).id];
    const scan = await t.build.scan({
      agent_id: agent,
      client_id: client,
      location_id: first,
      scanned_at: new Date('2026-05-10T00:00:00Z'),
    });
    const quote = await t.build.quote(scan.id);
    await sql`insert into quote_approvals (quote_id, token_hash, recipient, sent_at, expires_at, decided_at, lines)
      values (${quote.id}, 'figures-hash', 'customer@example.test', '2026-05-10T02:00:00Z', now() + interval '14 days',
        '2026-05-10T04:00:00Z', '[{"key": "dent:1", "decision": "approved"}]'::jsonb)`.execute(t.db);

    expect(await figures(`&client_id=${client}&location_id=${first}`)).toMatchObject({
      sent: 1,
      approved: 1,
      scan_to_approval: { median_seconds: 4 * 3600 },
    });
    await sql`update quotes set client_id = ${moved} where id = ${quote.id}`.execute(t.db);
    await sql`update scans set location_id = ${second}, scanned_at = '2026-05-09T04:00:00Z' where id = ${scan.id}`.execute(t.db);
    expect(await figures(`&client_id=${client}`)).toMatchObject({ sent: 0 });
    expect(await figures(`&location_id=${first}`)).toMatchObject({ sent: 0 });
    expect(await figures(`&client_id=${moved}&location_id=${second}`)).toMatchObject({
      sent: 1,
      approved: 1,
      scan_to_approval: { median_seconds: 24 * 3600 },
    });
  });
});
